// GET /dashboard/export/links.csv and customers.csv over real HTTP, like the other lists' exports
// (test/dashboard/export.test.ts): the content (columns, decimal amounts, open or closed at the
// gateway's clock, counts, quoting, formula-safe cells), the lists' own filters and the refusal of
// any other key or value by name, who may read them (no or a bad token: 401; every role of the
// workspace, viewer included, as for the lists; another workspace's token never sees these rows;
// support names the workspace) and 20,000 links streamed in chunks.
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { LINK_CSV_COLUMNS } from '../../src/domain/payment-links/export.ts';
import { CUSTOMER_CSV_COLUMNS } from '../../src/domain/customers-export.ts';
import { useGateway } from '../helpers/fixture.ts';
import { exportReader } from '../helpers/exports.ts';
import { answerAcs, GOOD_CARD } from '../helpers/checkout.ts';
import { paymentBody } from '../helpers/payments.ts';

const { t, merchant: m, merchants, seed } = useGateway({ merchant: true, merchants: { other: {} }, now: '2026-03-10T12:00:00Z' });

// Signed at the gateway's clock, in the timestamp form the link operations require.
const ts = { form: 'timestamp' as const, get timestamp() { return Math.floor(t.clock.now().getTime() / 1000); } };
const tokens: Record<string, string> = {};
const links = { fixed: '', custom: '', closed: '', expiring: '' };
const customers = { ayse: '', formula: '' };

async function createLink(merchant: typeof m, link: Record<string, unknown>): Promise<{ token: string; checkoutUrl: string }> {
  const res = await merchant.call('create-payment-link', { payment_link: { currency: 'TRY', ...link } }, ts);
  if (res.status !== 200) throw new Error(`create-payment-link answered ${res.status}: ${res.text}`);
  t.clock.advance(1_000); // distinct creation times: one newest-first order
  return { token: res.body.payment_link.token, checkoutUrl: res.body.payment_link.checkout_url };
}

/** Fills the link page's card form; the answer sends the browser to the 3D page. */
async function startLinkPayment(checkoutUrl: string, fields: Record<string, string> = {}): Promise<string> {
  const body = new URLSearchParams({ ...GOOD_CARD, firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com', ...fields }).toString();
  const res = await fetch(checkoutUrl, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
  await res.text();
  if (res.status !== 303) throw new Error(`link page answered ${res.status}`);
  return res.headers.get('location')!;
}

beforeAll(async () => {
  const db = t.gateway.services.db;
  for (const role of ['owner', 'viewer'] as const) tokens[role] = await createAccessToken(db, m.team, `${role} export`, { role });
  tokens.other = await createAccessToken(db, merchants.other.team, 'other export');
  tokens.support = await createAccessToken(db, null, 'support export');

  const fixed = await createLink(m, { reference: 'LINK-FIX-1', description: '=HYPERLINK("http://evil.test","click")', items: [{ name: 'Çay', quantity: 2, unit_amount: '50.00', tax_rate: 20 }] });
  links.fixed = fixed.token;
  links.custom = (await createLink(m, {
    reference: 'LINK-PRE-2', amount_type: 'predefined_and_custom', item_name: '+Bağış, "özel"', predefined_amounts: ['10', '25.50'], currency_type: 'selectable', currencies: ['EUR', 'TRY'],
  })).token;
  links.closed = (await createLink(m, { reference: 'LINK-OFF-3', items: [{ name: 'Kek', unit_amount: '30.00' }] })).token;
  const off = await m.call(`update-payment-link/${links.closed}`, { payment_link: { is_active: false } }, ts);
  expect(off.status).toBe(200);
  // Ends today in Istanbul (20:59:59.999 UTC): open now, closed once the clock passes that.
  links.expiring = (await createLink(m, { reference: 'LINK-EXP-4', items: [{ name: 'Simit', unit_amount: '5.00' }], expires_at: '2026-03-10' })).token;
  await createLink(merchants.other, { reference: 'OTHER-LINK-9', items: [{ name: 'X', unit_amount: '1.00' }] });
  // Two attempts on the fixed link: one paid, one left on the 3D page.
  await answerAcs(t.gateway.baseUrl, await startLinkPayment(fixed.checkoutUrl), 'approve');
  await startLinkPayment(fixed.checkoutUrl);

  const first = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'EXP-CUST-PAY-1' }, customer: { channel_reference: 'EXP-CUST-1', firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com', phone: '+905551112233', district: 'Kadıköy', province: 'İstanbul', country: 'TR' } }));
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  t.clock.advance(1_000);
  await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'EXP-CUST-PAY-2' }, customer: { channel_reference: 'EXP-CUST-1' } }));
  t.clock.advance(1_000);
  await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'EXP-CUST-PAY-3' }, customer: { channel_reference: '-EXP-CUST-2', firstname: '@SUM(A1)', lastname: 'a, "b"\nc', email: null } }));
  await merchants.other.call('regular-payment', paymentBody(merchants.other, { customer: { channel_reference: 'OTHER-CUST-9' } }));
  const rows = await db.customer.findMany({ where: { workspaceId: m.workspaceId } });
  customers.ayse = rows.find((c) => c.channelReference === 'EXP-CUST-1')!.id;
  customers.formula = rows.find((c) => c.channelReference === '-EXP-CUST-2')!.id;
});

const { get, rowsOf, column } = exportReader(t, () => tokens.owner!);

describe('payment links CSV export', () => {
  it('needs a valid token', async () => {
    const none = await get('links.csv', null);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ result: { successful: false, message: 'The access token is invalid.' }, errors: {} });
    expect((await get('links.csv', 'dash_' + '0'.repeat(64))).status).toBe(401);
  });

  it("writes the workspace's links newest first: amounts, open or closed now, attempts and paid, inert formulas", async () => {
    const res = await get('links.csv');
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="links-${m.team}-2026-03-10.csv"`);
    const text = await res.clone().text();
    expect(text.split('\r\n')[0]).toBe(LINK_CSV_COLUMNS.join(','));
    expect(text).not.toContain('OTHER-LINK-9');
    const rows = await rowsOf(res);
    expect(rows.map((r) => r.token)).toEqual([links.expiring, links.closed, links.custom, links.fixed]);
    const [expiring, closed, custom, fixed] = rows as [Record<string, string>, Record<string, string>, Record<string, string>, Record<string, string>];
    expect(fixed).toMatchObject({
      created_at: '2026-03-10T12:00:00.000Z',
      created_at_local: '2026-03-10T15:00:00.000+03:00',
      time_zone: 'Europe/Istanbul',
      reference: 'LINK-FIX-1',
      description: `'=HYPERLINK("http://evil.test","click")`,
      amount_type: 'fixed',
      item_name: '',
      amount: '100.00',
      predefined_amounts: '',
      currency: 'TRY',
      currencies: '',
      is_active: 'true',
      expires_at: '',
      transactions_count: '2',
      paid_count: '1',
    });
    expect(custom).toMatchObject({ amount_type: 'predefined_and_custom', item_name: `'+Bağış, "özel"`, amount: '', predefined_amounts: '10.00 25.50', currencies: 'TRY EUR', transactions_count: '0', paid_count: '0' });
    expect(closed).toMatchObject({ reference: 'LINK-OFF-3', amount: '30.00', is_active: 'false' });
    expect(expiring).toMatchObject({ is_active: 'true', expires_at: '2026-03-10T20:59:59.999Z' });
  });

  it('says closed for a link whose last day is over, at the moment of the export', async () => {
    const now = t.clock.now();
    t.clock.set('2026-03-10T21:00:00Z');
    try {
      const rows = await rowsOf(await get('links.csv?reference=LINK-EXP-4'));
      expect(rows.map((r) => [r.reference, r.is_active])).toEqual([['LINK-EXP-4', 'false']]);
      // The filter follows the same rule as the column: an expired link is a closed one.
      expect(await column('links.csv?isActive=true', 'reference')).toEqual(['LINK-PRE-2', 'LINK-FIX-1']);
      expect(await column('links.csv?isActive=false', 'reference')).toEqual(['LINK-EXP-4', 'LINK-OFF-3']);
      // And so does the dashboard's list, through GraphQL.
      const listed = await fetch(`${t.gateway.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens.owner}` },
        body: JSON.stringify({ query: '{ paymentLinks(first: 10, filter: { isActive: false }) { edges { node { reference isActive } } } }' }),
      });
      expect((await listed.json()).data.paymentLinks.edges.map((e: { node: unknown }) => e.node)).toEqual([
        { reference: 'LINK-EXP-4', isActive: false },
        { reference: 'LINK-OFF-3', isActive: false },
      ]);
    } finally {
      t.clock.set(now);
    }
  });

  it("carries the links list's filters, and refuses any other key or value by name", async () => {
    expect(await column('links.csv?isActive=false', 'reference')).toEqual(['LINK-OFF-3']);
    expect(await column('links.csv?isActive=true', 'reference')).toEqual(['LINK-EXP-4', 'LINK-PRE-2', 'LINK-FIX-1']); // its last day not yet over
    expect(await column('links.csv?reference=LINK-PRE-2', 'token')).toEqual([links.custom]);
    const window = `createdFrom=${encodeURIComponent('2026-03-10T12:00:01Z')}&createdTo=${encodeURIComponent('2026-03-10T12:00:03Z')}`;
    expect(await column(`links.csv?${window}`, 'reference')).toEqual(['LINK-OFF-3', 'LINK-PRE-2']);

    const bad = await get('links.csv?isActive=yes');
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors).toEqual({ isActive: ['Must be one of: true, false.'] });
    // A key of another list is not one of this list.
    const status = await get('links.csv?status=paid');
    expect(status.status).toBe(422);
    expect((await status.json()).errors).toEqual({ status: ['The field "status" is not known to this operation.'] });
  });

  it("is every role's (a viewer reads the list, so exports it); another workspace's token sees only its own links", async () => {
    expect(await column('links.csv', 'token', tokens.viewer)).toEqual([links.expiring, links.closed, links.custom, links.fixed]);
    expect(await column('links.csv', 'reference', tokens.other)).toEqual(['OTHER-LINK-9']);
    // Naming a workspace is support's: a workspace's token stays in its own.
    expect(await column(`links.csv?workspaceSlug=${m.team}`, 'reference', tokens.other)).toEqual(['OTHER-LINK-9']);
    expect(await column(`links.csv?workspaceSlug=${merchants.other.team}`, 'reference', tokens.support)).toEqual(['OTHER-LINK-9']);
  });

  it('streams 20,000 links in many chunks', { timeout: 120_000 }, async () => {
    const big = await seed();
    const bigToken = await createAccessToken(t.gateway.services.db, big.team, 'big export');
    const client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO "PaymentLink" (id, "workspaceId", reference, "amountType", "itemName", currency, "predefinedAmounts", currencies, "createdAt", "updatedAt")
         SELECT gen_random_uuid(), $1, 'BULK-' || i, 'custom', CASE WHEN i % 5 = 0 THEN '=SUM(A1)' ELSE 'item, "' || i || '"' END, 'TRY', '{}', '{}',
                '2026-03-01'::timestamp + i * interval '1 second', now()
           FROM generate_series(1, 20000) AS i`,
        [big.workspaceId],
      );
    } finally {
      await client.end();
    }
    const res = await get('links.csv', bigToken);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBeNull();
    const reader = res.body!.getReader();
    let chunks = 0;
    let text = '';
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks++;
      text += decoder.decode(value, { stream: true });
    }
    const rows: Record<string, string>[] = parse(text, { columns: true });
    expect(rows).toHaveLength(20_000);
    expect(chunks).toBeGreaterThan(20);
    // Newest first across every batch boundary, none repeated or lost.
    expect(rows[0]!.reference).toBe('BULK-20000');
    expect(rows.at(-1)!.reference).toBe('BULK-1');
    expect(new Set(rows.map((r) => r.token)).size).toBe(20_000);
    expect(rows.find((r) => r.reference === 'BULK-5')!.item_name).toBe("'=SUM(A1)");
  });
});

describe('customers CSV export', () => {
  it('needs a valid token', async () => {
    expect((await get('customers.csv', null)).status).toBe(401);
    expect((await get('customers.csv', 'dash_' + '0'.repeat(64))).status).toBe(401);
  });

  it("writes the workspace's customers newest first with their details and number of payments, formula-safe", async () => {
    const res = await get('customers.csv');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="customers-${m.team}-2026-03-10.csv"`);
    const text = await res.clone().text();
    expect(text.split('\r\n')[0]).toBe(CUSTOMER_CSV_COLUMNS.join(','));
    expect(text).not.toContain('OTHER-CUST-9');
    const rows = await rowsOf(res);
    expect(rows.map((r) => r.token)).toEqual([customers.formula, customers.ayse]);
    expect(rows[1]).toEqual({
      token: customers.ayse,
      // The gateway's clock: five links were made a second apart before.
      created_at: '2026-03-10T12:00:05.000Z',
      created_at_local: '2026-03-10T15:00:05.000+03:00',
      time_zone: 'Europe/Istanbul',
      channel_token: m.channelToken,
      channel_reference: 'EXP-CUST-1',
      firstname: 'Ayşe',
      lastname: 'Yılmaz',
      email: 'ayse@example.com',
      phone: "'+905551112233",
      address: '',
      district: 'Kadıköy',
      province: 'İstanbul',
      country: 'TR',
      payment_count: '2',
    });
    expect(rows[0]).toMatchObject({ channel_reference: "'-EXP-CUST-2", firstname: "'@SUM(A1)", lastname: 'a, "b"\nc', email: '', payment_count: '1' });
  });

  it("carries the customers list's filters (channel, reference), and refuses any other key", async () => {
    expect(await column('customers.csv?channelReference=EXP-CUST-1', 'token')).toEqual([customers.ayse]);
    expect(await column(`customers.csv?channelToken=${m.channelToken}`, 'token')).toEqual([customers.formula, customers.ayse]);
    // A malformed channel token matches none, as in the list.
    expect(await column('customers.csv?channelToken=nope', 'token')).toEqual([]);
    const dated = await get(`customers.csv?createdFrom=${encodeURIComponent('2026-03-01T00:00:00Z')}`);
    expect(dated.status).toBe(422);
    expect(Object.keys((await dated.json()).errors)).toEqual(['createdFrom']);
  });

  it("is every role's; another workspace's token sees only its own customers; support names the workspace", async () => {
    expect(await column('customers.csv', 'token', tokens.viewer)).toEqual([customers.formula, customers.ayse]);
    expect(await column('customers.csv', 'channel_reference', tokens.other)).toEqual(['OTHER-CUST-9']);
    expect(await column(`customers.csv?workspaceSlug=${m.team}`, 'channel_reference', tokens.other)).toEqual(['OTHER-CUST-9']);
    expect(await column(`customers.csv?workspaceSlug=${merchants.other.team}`, 'channel_reference', tokens.support)).toEqual(['OTHER-CUST-9']);
  });
});
