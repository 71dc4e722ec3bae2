// The dashboard lists' cost: a page is a fixed number of SQL statements whatever its size, because
// the Prisma plugin plans each selected relation as one query for the whole page (no row-by-row
// loading, no second fetch of what the list already loaded). Counted through Prisma's query events
// on a client of the test database, served by the same schema in-process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../../src/generated/prisma/client.ts';
import { schema } from '../../src/graphql/schema.ts';
import { createGraphQLServer } from '../../src/graphql/yoga.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { paymentBody } from '../helpers/payments.ts';
import { orderBody, productBody } from '../helpers/orders.ts';
import { payOnCheckout } from '../helpers/checkout.ts';
import { gql } from '../helpers/webhooks.ts';

const ROWS = 6;

let t: TestGateway;
let m: Merchant;
let token: string;
let db: PrismaClient;
/** Tables read by each SQL statement since the last reset. */
let reads: string[] = [];
let yoga: ReturnType<typeof createGraphQLServer>;

beforeAll(async () => {
  t = await startTestGateway();
  m = await seedWorkspace(t);
  token = await createAccessToken(t.gateway.services.db, m.team, 'dashboard');
  const hook = await gql(t, token, 'mutation { addWebhookAddress(input: { url: "http://127.0.0.1:9/hook", allEvents: true }) { errors { code } } }');
  expect(hook.body.data.addWebhookAddress.errors).toEqual([]);
  for (let i = 0; i < ROWS; i++) {
    const pay = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: `COST-${i}` } }));
    expect((await m.call('refund-payment', { transaction: { token: pay.body.transaction.token }, amount: '1.00' })).status).toBe(200);
    const order = await m.call('order-payment', orderBody(m, { order: { channel_reference: `COST-${i}` } }));
    if (i % 2 === 0) await payOnCheckout(order.body.order.checkout_url, {});
    expect((await m.call('save-product', productBody(m, { channel_reference: `COST-${i}` }))).status).toBe(200);
    const link = { payment_link: { currency: 'TRY', reference: `LNK-${i}`, is_active: i % 2 === 0, items: [{ name: `Ürün ${i}`, unit_amount: '10.00' }] } };
    expect((await m.call('create-payment-link', link, { form: 'timestamp', timestamp: Math.floor(t.clock.now().getTime() / 1000) })).status).toBe(200);
    t.clock.advance(1_000);
  }
  const counting = new PrismaClient({ adapter: new PrismaPg({ connectionString: t.databaseUrl }), log: [{ emit: 'event', level: 'query' }] });
  counting.$on('query', (e) => reads.push(/FROM "public"\."(\w+)"/.exec(e.query)?.[1] ?? e.query));
  db = counting;
  yoga = createGraphQLServer(schema, { ...t.gateway.services, db });
});
afterAll(async () => {
  await db?.$disconnect();
  await t?.stop();
});

/** Rows of one page and the tables its SQL statements read (the bearer token lookup included). */
async function pageOf(field: string, first: number, selection: string): Promise<{ rows: number; reads: string[] }> {
  reads = [];
  const res = await yoga.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: `{ ${field}(first: ${first}) { edges { cursor node { ${selection} } } pageInfo { hasNextPage } } }` }),
  });
  const body = (await res.json()) as { data?: Record<string, { edges: unknown[] }>; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return { rows: body.data![field]!.edges.length, reads };
}

const PAYMENT = 'token status paymentStatus amount customer { channelReference } savedCard { token } refunds { type amount } conversion { rate }';
const ORDER = `token status subtotal taxAmount customer { channelReference } items { name quantity }
  payments { token status } transaction { token status refunds { amount } }`;

describe('a page of a dashboard list', () => {
  it.each([
    ['payments', PAYMENT],
    ['orders', ORDER],
    ['products', 'channelReference name amount isActive'],
    ['notifications', 'id event status attempts { number httpStatus }'],
    ['paymentLinks', 'token reference amountType isActive amount items { name unitAmount }'],
  ])(`%s: takes the same statements for ${ROWS} rows as for 2, one per table`, async (field, selection) => {
    const small = await pageOf(field, 2, selection);
    const large = await pageOf(field, ROWS, selection);

    expect(small.rows).toBe(2);
    expect(large.rows).toBe(ROWS);
    expect([...large.reads].sort()).toEqual([...small.reads].sort());
    // Each table once: the list's rows and every relation asked for, none loaded a second time.
    expect(new Set(large.reads).size).toBe(large.reads.length);
  });
});

describe('the payments list', () => {
  it('filters by the card’s last four digits; anything but four digits matches none', async () => {
    const other = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'LAST4-MC' }, card: { number: '5555555555554444' } }));
    expect(other.body.result.successful).toBe(true);
    const q = `query($f: PaymentFilter) { payments(first: 50, filter: $f) { edges { node { channelReference cardLastFourDigits } } } }`;
    const nodes = async (cardLastFour: string) =>
      (await gql(t, token, q, { f: { cardLastFour } })).body.data.payments.edges.map((e: { node: { channelReference: string; cardLastFourDigits: string } }) => e.node);
    const refs = async (cardLastFour: string) => (await nodes(cardLastFour)).map((n: { channelReference: string }) => n.channelReference);
    expect(await refs('4444')).toEqual(['LAST4-MC']);
    // The API payments and the order payments of beforeAll, all with the 4111… card.
    const visa = await nodes('1111');
    expect(new Set(visa.map((n: { cardLastFourDigits: string }) => n.cardLastFourDigits))).toEqual(new Set(['1111']));
    expect(new Set(visa.map((n: { channelReference: string }) => n.channelReference))).toEqual(new Set(Array.from({ length: ROWS }, (_, i) => `COST-${i}`)));
    expect(await refs('444')).toEqual([]);
    expect(await refs('abcd')).toEqual([]);
    const both = await gql(t, token, q, { f: { cardLastFour: '4444', channelReference: 'COST-1' } });
    expect(both.body.data.payments.edges).toEqual([]);
  });
});

describe('the payment links list', () => {
  it('filters by is_active and reference, newest first, and pages with cursors', async () => {
    const q = `query($f: PaymentLinkFilter, $after: String) { paymentLinks(first: 2, filter: $f, after: $after) { edges { cursor node { reference isActive } } pageInfo { hasNextPage endCursor } } }`;
    const active = await gql(t, token, q, { f: { isActive: true } });
    expect(active.body.data.paymentLinks.edges.map((e: { node: { reference: string } }) => e.node.reference)).toEqual(['LNK-4', 'LNK-2']);
    expect(active.body.data.paymentLinks.pageInfo.hasNextPage).toBe(true);
    const next = await gql(t, token, q, { f: { isActive: true }, after: active.body.data.paymentLinks.pageInfo.endCursor });
    expect(next.body.data.paymentLinks.edges.map((e: { node: { reference: string } }) => e.node.reference)).toEqual(['LNK-0']);
    const one = await gql(t, token, q, { f: { reference: 'LNK-3' } });
    expect(one.body.data.paymentLinks.edges).toEqual([{ cursor: expect.any(String), node: { reference: 'LNK-3', isActive: false } }]);
  });

  it('another workspace’s token lists none of these links', async () => {
    const other = await seedWorkspace(t);
    const otherToken = await createAccessToken(t.gateway.services.db, other.team, 'dashboard');
    const res = await gql(t, otherToken, '{ paymentLinks(first: 50) { edges { node { reference } } } }');
    expect(res.body.data.paymentLinks.edges).toEqual([]);
  });
});

describe('a link’s payments for the dashboard', () => {
  it('linkPayments lists the payments made through a link, and none to another workspace', async () => {
    const ts = { form: 'timestamp' as const, timestamp: Math.floor(t.clock.now().getTime() / 1000) };
    const created = await m.call('create-payment-link', { payment_link: { currency: 'TRY', amount_type: 'custom', item_name: 'Bağış' } }, ts);
    const link = created.body.payment_link as { token: string; checkout_url: string };
    const form = new URLSearchParams({ holder_name: 'AYSE YILMAZ', number: '4111111111111111', expiry_month: '12', expiry_year: '2030', security_code: '123', firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com', amount: '42.00' });
    const posted = await fetch(link.checkout_url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form.toString(), redirect: 'manual' });
    expect(posted.status).toBe(303);
    const q = 'query($t: String!) { linkPayments(token: $t) { reference status amount currency customer { billingAddress { email } } transaction { token } } }';
    const mine = await gql(t, token, q, { t: link.token });
    expect(mine.body.errors).toBeUndefined();
    expect(mine.body.data.linkPayments).toEqual([{ reference: expect.stringMatching(/^LINKPAY\d+$/), status: 'pending', amount: '42.00', currency: 'TRY', customer: { billingAddress: { email: 'ayse@example.com' } }, transaction: { token: expect.any(String) } }]);
    const other = await seedWorkspace(t);
    const theirs = await gql(t, await createAccessToken(t.gateway.services.db, other.team, 'dashboard'), q, { t: link.token });
    expect(theirs.body.data.linkPayments).toEqual([]);
  });
});
