// GET /dashboard/export/payments.csv (and orders.csv, subscriptions.csv) over real HTTP: who may read it (no or a bad token: 401; a
// workspace's token: its own rows only; support: the workspace it names), the content (columns,
// decimal amounts, UTC and Istanbul times, quoting, formula-safe cells), the payments list's
// filters, refused filters by name, and 100,000 rows streamed in chunks while the gateway's heap
// stays far below the file's size.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { PAYMENT_CSV_COLUMNS } from '../../src/domain/payments/export.ts';
import { useGateway } from '../helpers/fixture.ts';
import { insertPayments, seedManyPayments } from '../helpers/seed-payments.ts';
import { orderBody } from '../helpers/orders.ts';
import { payOnCheckout } from '../helpers/checkout.ts';
import { ORDER_CSV_COLUMNS } from '../../src/domain/orders/export.ts';
import { openSubscription, recurringProduct, saveProducts } from '../subscriptions/support.ts';

const { t, merchant: m, merchants, seed } = useGateway({ merchant: true, merchants: { other: {} }, now: '2026-03-10T12:00:00Z' });

let token: string;
let ids: string[];

beforeAll(async () => {
  token = await createAccessToken(t.gateway.services.db, m.team, 'export');
  ids = await insertPayments(t.databaseUrl, m.workspaceId, [
    { createdAt: '2026-03-04T09:00:00Z', amount: 123450n, channelReference: '=HYPERLINK("http://evil.test","click")' },
    { createdAt: '2026-03-05T21:30:00Z', amount: 5n, currency: 'USD', channelReference: 'a, "quoted"\nline' },
    { createdAt: '2026-03-06T09:00:00Z', amount: 7000n, status: 'failed', errorCode: 'insufficient_funds', channelReference: '-2+3' },
    { createdAt: '2026-03-07T09:00:00Z', amount: 100n, channelReference: '@SUM(A1)' },
    { createdAt: '2026-03-08T09:00:00Z', amount: 100n, channelReference: '+90 555' },
  ]);
  await insertPayments(t.databaseUrl, merchants.other.workspaceId, [{ createdAt: '2026-03-05T09:00:00Z', amount: 99900n, channelReference: 'OTHER' }]);
});

const exportUrl = (query = '') => `${t.gateway.baseUrl}/dashboard/export/payments.csv${query ? `?${query}` : ''}`;
const get = (query = '', as: string | null = token) => fetch(exportUrl(query), { headers: as ? { Authorization: `Bearer ${as}`, 'Accept-Language': 'en' } : { 'Accept-Language': 'en' } });
const rowsOf = async (res: Response): Promise<Record<string, string>[]> => parse(await res.text(), { columns: true });

describe('payments CSV export', () => {
  it('needs a valid token', async () => {
    const none = await get('', null);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ result: { successful: false, message: 'The access token is invalid.' }, errors: {} });
    expect((await get('', 'dash_' + '0'.repeat(64))).status).toBe(401);
  });

  it("writes the workspace's payments newest first: decimal amounts, UTC and local times, quoting, inert formulas", async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="payments-${m.team}-2026-03-10.csv"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.clone().text();
    expect(text.split('\r\n')[0]).toBe(PAYMENT_CSV_COLUMNS.join(','));
    const rows = await rowsOf(res);
    expect(rows.map((r) => r.token)).toEqual([...ids].reverse());
    const first = rows.find((r) => r.token === ids[0])!;
    expect(first).toMatchObject({
      created_at: '2026-03-04T09:00:00.000Z',
      created_at_local: '2026-03-04T12:00:00.000+03:00',
      time_zone: 'Europe/Istanbul',
      status: 'successful',
      payment_status: 'paid',
      amount: '1234.50',
      refunded_amount: '0.00',
      currency: 'TRY',
      card_first_digits: '41111111',
      card_last_four: '1111',
      channel_reference: `'=HYPERLINK("http://evil.test","click")`,
    });
    // Istanbul's next day begins at 21:00 UTC.
    const usd = rows.find((r) => r.token === ids[1])!;
    expect(usd).toMatchObject({ amount: '0.05', currency: 'USD', created_at_local: '2026-03-06T00:30:00.000+03:00', channel_reference: 'a, "quoted"\nline' });
    expect(rows.find((r) => r.token === ids[2])).toMatchObject({ status: 'failed', error_code: 'insufficient_funds', channel_reference: "'-2+3" });
    expect(rows.find((r) => r.token === ids[3])!.channel_reference).toBe("'@SUM(A1)");
    expect(rows.find((r) => r.token === ids[4])!.channel_reference).toBe("'+90 555");
    expect(text).not.toContain('OTHER');
  });

  it("carries the list's filters; a workspace token never reaches another workspace", async () => {
    expect((await rowsOf(await get('status=failed'))).map((r) => r.token)).toEqual([ids[2]]);
    expect((await rowsOf(await get('status=failed&status=successful'))).length).toBe(5);
    expect((await rowsOf(await get('channelReference=%2B90%20555'))).map((r) => r.token)).toEqual([ids[4]]);
    const window = `createdFrom=${encodeURIComponent('2026-03-05T00:00:00Z')}&createdTo=${encodeURIComponent('2026-03-07T00:00:00Z')}`;
    expect((await rowsOf(await get(window))).map((r) => r.token)).toEqual([ids[2], ids[1]]);
    expect((await rowsOf(await get(`workspaceSlug=${merchants.other.team}`))).map((r) => r.token)).toEqual([...ids].reverse());
  });

  it('answers HEAD with the headers alone and refuses other methods', async () => {
    const head = await fetch(exportUrl(), { method: 'HEAD', headers: { Authorization: `Bearer ${token}` } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await head.text()).toBe('');
    const post = await fetch(exportUrl(), { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('support staff export the workspace they name', async () => {
    const support = await createAccessToken(t.gateway.services.db, null, 'support export');
    const rows = await rowsOf(await get(`workspaceSlug=${merchants.other.team}`, support));
    expect(rows.map((r) => r.channel_reference)).toEqual(['OTHER']);
    // A support read of another workspace is in the audit trail, as its GraphQL reads are.
    const audited = await t.gateway.services.db.auditEntry.findMany({ where: { tokenName: 'support export' } });
    expect(audited).toMatchObject([{ role: 'support', operation: 'export:payments.csv', outcome: 'read', workspaceId: null, variables: { workspaceSlug: merchants.other.team } }]);
  });

  it("a workspace's own export is not a support read: nothing is audited", async () => {
    const before = await t.gateway.services.db.auditEntry.count();
    const own = await get('');
    expect(own.status).toBe(200);
    await own.text();
    expect(await t.gateway.services.db.auditEntry.count()).toBe(before);
  });

  it('refuses an unknown filter value or key by name, before writing anything', async () => {
    const status = await get('status=bogus');
    expect(status.status).toBe(422);
    const body = await status.json();
    expect(body.errors).toEqual({ status: ['Must be one of: started, successful, failed, expired, unresolved.'] });
    const date = await get('createdFrom=yesterday');
    expect(date.status).toBe(422);
    expect(Object.keys((await date.json()).errors)).toEqual(['createdFrom']);
    const unknown = await get('amount=5');
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).errors).toEqual({ amount: ['The field "amount" is not known to this operation.'] });
  });

  it("exports orders with the orders list's filters, formula-safe", async () => {
    const open = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'ORD-OPEN-1', description: '=cmd|calc' } }));
    expect(open.status, JSON.stringify(open.body)).toBe(200);
    t.clock.advance(1_000);
    const paid = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'ORD-PAID-2' } }));
    await payOnCheckout(paid.body.order.checkout_url, {});
    const orders = (path: string) => fetch(`${t.gateway.baseUrl}/dashboard/export/${path}`, { headers: { Authorization: `Bearer ${token}`, 'Accept-Language': 'en' } });
    const all = await orders('orders.csv');
    expect(all.status).toBe(200);
    expect(all.headers.get('content-disposition')).toBe(`attachment; filename="orders-${m.team}-2026-03-10.csv"`);
    const text = await all.text();
    expect(text.split('\r\n')[0]).toBe(ORDER_CSV_COLUMNS.join(','));
    const rows: Record<string, string>[] = parse(text, { columns: true });
    expect(rows.map((r) => r.channel_reference)).toEqual(['ORD-PAID-2', 'ORD-OPEN-1']);
    expect(rows[1]).toMatchObject({ status: 'open', amount: '100.00', currency: 'TRY', description: "'=cmd|calc", customer_reference: 'CUST-1', paid_at: '' });
    const onlyPaid: Record<string, string>[] = parse(await (await orders('orders.csv?status=paid')).text(), { columns: true });
    expect(onlyPaid.map((r) => r.channel_reference)).toEqual(['ORD-PAID-2']);
    expect(onlyPaid[0]!.paid_at).toMatch(/^2026-03-10T/);
    // A key of the payments list is not one of the orders list.
    const wrong = await orders('orders.csv?paymentStatus=paid');
    expect(wrong.status).toBe(422);
    expect(Object.keys((await wrong.json()).errors)).toEqual(['paymentStatus']);
    expect((await orders('nothing.csv')).status).toBe(404);
  });

  it("exports subscriptions with the subscriptions list's filters", async () => {
    await saveProducts(m, [recurringProduct(m, 'PLAN-BASIC')]);
    const { token: sub } = await openSubscription(m, { subscription: { channel_reference: 'SUB-EXPORT-1' } });
    const subscriptions = (query: string) => fetch(`${t.gateway.baseUrl}/dashboard/export/subscriptions.csv${query}`, { headers: { Authorization: `Bearer ${token}` } });
    const res = await subscriptions('?status=pending');
    expect(res.status).toBe(200);
    const rows: Record<string, string>[] = parse(await res.text(), { columns: true });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ token: sub, channel_reference: 'SUB-EXPORT-1', status: 'pending', period: 'monthly', amount: '100.00', currency: 'TRY', customer_reference: 'CUST-1', cancelled_at: '' });
    expect(parse(await (await subscriptions('?status=active')).text(), { columns: true })).toEqual([]);
    expect((await subscriptions('?status=paid')).status).toBe(422);
  });

  it('streams 100,000 rows: many chunks, and the heap holds far less than the file', { timeout: 300_000 }, async () => {
    const big = await seed();
    const bigToken = await createAccessToken(t.gateway.services.db, big.team, 'big export');
    await seedManyPayments(t.databaseUrl, big.workspaceId, { count: 100_000, days: 90, end: new Date('2026-03-10T12:00:00Z') });
    // A real collection before each measurement, so that the figures are live objects, not garbage.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;

    const res = await fetch(exportUrl(), { headers: { Authorization: `Bearer ${bigToken}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBeNull();
    const reader = res.body!.getReader();
    let bytes = 0;
    let chunks = 0;
    let lines = 0;
    let heapMidway = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks++;
      bytes += value.byteLength;
      for (const b of value) if (b === 10) lines++;
      if (!heapMidway && lines > 50_000) {
        gc();
        heapMidway = process.memoryUsage().heapUsed - before;
      }
    }
    expect(lines).toBe(100_001); // the header and every row (CRLF endings; no row breaks inside a cell here)
    expect(chunks).toBeGreaterThan(100);
    // Half way through, the gateway (same process) holds a batch, not the rows already sent or to come.
    expect(bytes).toBeGreaterThan(10_000_000);
    expect(heapMidway).toBeLessThan(bytes / 4);
  });
});
