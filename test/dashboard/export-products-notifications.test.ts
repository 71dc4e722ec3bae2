// GET /dashboard/export/products.csv and notifications.csv over real HTTP, like the other lists'
// exports (test/dashboard/export.test.ts): the content (columns, decimal amounts and rates, times),
// newest first, the lists' own filters and the refusal of any other key or value by name, formula-
// safe cells, and who may read them (no token: 401; another workspace's token never sees these rows).
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { PRODUCT_CSV_COLUMNS } from '../../src/domain/products-export.ts';
import { NOTIFICATION_CSV_COLUMNS } from '../../src/domain/webhooks/export.ts';
import { addWebhookAddress } from '../../src/domain/webhooks/addresses.ts';
import { useGateway } from '../helpers/fixture.ts';
import { exportReader } from '../helpers/exports.ts';
import { productBody } from '../helpers/orders.ts';
import { paymentBody } from '../helpers/payments.ts';
import { deliveryRounds, eventually } from '../helpers/webhooks.ts';

const { t, merchant: m, merchants, receiver } = useGateway({ merchant: true, merchants: { other: {} }, receiver: true, now: '2026-03-10T12:00:00Z' });
const tokens: Record<string, string> = {};
let payment = '';

async function saveProduct(merchant: typeof m, product: Record<string, unknown>) {
  const res = await merchant.call('save-product', productBody(merchant, product));
  if (res.status !== 200) throw new Error(`save-product answered ${res.status}: ${res.text}`);
  t.clock.advance(1_000); // distinct creation times: one newest-first order
}

beforeAll(async () => {
  const db = t.gateway.services.db;
  tokens.owner = await createAccessToken(db, m.team, 'owner export');
  tokens.other = await createAccessToken(db, merchants.other.team, 'other export');
  await saveProduct(m, { channel_reference: 'SKU-A', name: 'Çay', amount: '1234.50', tax_rate: '20' });
  await saveProduct(m, { channel_reference: 'SKU-B', name: '=HYPERLINK("http://evil.test")', type: 'recurring', period: 'monthly', amount: '99.90', tax_rate: '1.5', is_active: false });
  await saveProduct(merchants.other, { channel_reference: 'OTHER-SKU' });

  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
  await addWebhookAddress(t.gateway.services, workspace, { url: `${receiver.url}/hooks`, events: ['transaction.successful'] });
  const res = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'NOTIFY-1' } }));
  expect(res.status).toBe(200);
  payment = res.body.transaction.token;
  t.clock.advance(30_000); // the delivery job runs by the gateway's clock
  await receiver.waitFor(1);
  await deliveryRounds(t);
  await eventually(async () => (await db.notification.findFirst({ where: { recordToken: payment, status: 'delivered' } })) ?? undefined, 'the notification delivered');
});

const { get, rowsOf, column } = exportReader(t, () => tokens.owner!);

describe('products CSV export', () => {
  it("writes the workspace's products newest first: prices and VAT as decimals, on sale or not, inert formulas", async () => {
    const res = await get('products.csv');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="products-${m.team}-2026-03-10.csv"`);
    const text = await res.clone().text();
    expect(text.split('\r\n')[0]).toBe(PRODUCT_CSV_COLUMNS.join(','));
    expect(text).not.toContain('OTHER-SKU');
    const rows = await rowsOf(res);
    expect(rows.map((r) => r.channel_reference)).toEqual(['SKU-B', 'SKU-A']);
    expect(rows[1]).toEqual({
      token: expect.any(String),
      created_at: '2026-03-10T12:00:00.000Z',
      created_at_local: '2026-03-10T15:00:00.000+03:00',
      time_zone: 'Europe/Istanbul',
      channel_token: m.channelToken,
      channel_reference: 'SKU-A',
      name: 'Çay',
      type: 'simple',
      period: '',
      amount: '1234.50',
      currency: 'TRY',
      tax_rate: '20.00',
      is_active: 'true',
      updated_at: '2026-03-10T12:00:00.000Z',
    });
    expect(rows[0]).toMatchObject({ name: `'=HYPERLINK("http://evil.test")`, type: 'recurring', period: 'monthly', amount: '99.90', tax_rate: '1.50', is_active: 'false' });
  });

  it("carries the products list's filters and refuses any other key or value by name", async () => {
    expect(await column('products.csv?isActive=true', 'channel_reference')).toEqual(['SKU-A']);
    expect(await column('products.csv?isActive=false', 'channel_reference')).toEqual(['SKU-B']);
    expect(await column('products.csv?channelReference=SKU-A', 'name')).toEqual(['Çay']);
    expect(await column(`products.csv?channelToken=${m.channelToken}`, 'channel_reference')).toEqual(['SKU-B', 'SKU-A']);
    const bad = await get('products.csv?status=paid');
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors).toEqual({ status: ['The field "status" is not known to this operation.'] });
  });

  it("needs a token, and another workspace's token sees only its own products", async () => {
    expect((await get('products.csv', null)).status).toBe(401);
    expect(await column('products.csv', 'channel_reference', tokens.other)).toEqual(['OTHER-SKU']);
  });
});

describe('notifications CSV export', () => {
  it('writes what was sent where and how it went, never the body', async () => {
    const text = await (await get('notifications.csv')).clone().text();
    expect(text.split('\r\n')[0]).toBe(NOTIFICATION_CSV_COLUMNS.join(','));
    const rows = await rowsOf(await get('notifications.csv'));
    expect(rows).toEqual([
      {
        id: expect.any(String),
        created_at: expect.stringMatching(/^2026-03-10T12:00:\d\d\.\d{3}Z$/),
        created_at_local: expect.stringMatching(/^2026-03-10T15:00:\d\d\.\d{3}\+03:00$/),
        time_zone: 'Europe/Istanbul',
        event: 'transaction.successful',
        record_token: payment,
        url: `${receiver.url}/hooks`,
        status: 'delivered',
        attempt_count: '1',
        next_attempt_at: '',
        delivered_at: expect.stringMatching(/^2026-03-10T/),
      },
    ]);
    expect(text).not.toContain('"transaction"');
  });

  it("carries the notifications list's filters, refuses a status it does not have, and keeps workspaces apart", async () => {
    expect(await column('notifications.csv?status=delivered', 'record_token')).toEqual([payment]);
    expect(await column('notifications.csv?status=failed&status=dropped', 'record_token')).toEqual([]);
    expect(await column(`notifications.csv?recordToken=${payment}`, 'status')).toEqual(['delivered']);
    const bad = await get('notifications.csv?status=sent');
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors).toEqual({ status: ['Must be one of: pending, delivered, failed, dropped.'] });
    expect(await column('notifications.csv', 'record_token', tokens.other)).toEqual([]);
    expect((await get('notifications.csv', null)).status).toBe(401);
  });
});
