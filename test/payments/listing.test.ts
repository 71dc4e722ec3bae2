// Finding payments again: retrieve-payments (REST; by channel_reference, or a date range of at most
// 7 days in the workspace time zone, the last 7 days by default) and the dashboard's GraphQL
// `payments` (filters, cursor pagination) and `payment(token)` with its refunds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.ts';
import { updateWorkspace } from '../../src/domain/workspaces.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';

// 10:00 in Istanbul (UTC+3), the workspace's default time zone. In the future, so the real-time
// expire-payment job of the started 3D payment does not run during the file.
const NOW = '2030-03-11T07:00:00.000Z';

let t: TestGateway;
let m: Merchant;
let other: Merchant;
let dashboardToken: string;
/** A: 03-04 23:59:59, B: 03-05 00:00, C: 03-11 01:30, D: 03-11 09:00, all Istanbul time. */
const p = { A: '', B: '', C: '', D: '', elsewhere: '' };

async function payAt(merchant: Merchant, at: string, over: Parameters<typeof paymentBody>[1] & { kind?: 'regular-payment' | 'secure-payment' }): Promise<string> {
  t.clock.set(at);
  const res = await merchant.call(over.kind ?? 'regular-payment', paymentBody(merchant, over));
  expect(res.status).toBe(200);
  return res.body.transaction.token;
}

beforeAll(async () => {
  t = await startTestGateway({ clock: new ManualClock(NOW) });
  m = await seedWorkspace(t);
  other = await seedWorkspace(t);
  dashboardToken = await createAccessToken(t.gateway.services.db, m.team, 'dashboard');
  p.A = await payAt(m, '2030-03-04T20:59:59.000Z', { transaction: { channel_reference: 'LIST-1' } });
  p.B = await payAt(m, '2030-03-04T21:00:00.000Z', { transaction: { channel_reference: 'LIST-1' }, card: { number: CARDS.insufficientFunds } });
  p.C = await payAt(m, '2030-03-10T22:30:00.000Z', { transaction: { channel_reference: 'LIST-2' }, kind: 'secure-payment' });
  p.D = await payAt(m, '2030-03-11T06:00:00.000Z', { transaction: { channel_reference: 'LIST-3', amount: '250.00' } });
  p.elsewhere = await payAt(other, '2030-03-11T06:00:00.000Z', { transaction: { channel_reference: 'LIST-1' } });
  t.clock.set(NOW);
  const refund = await m.call('refund-payment', { transaction: { token: p.D }, amount: '10.00' });
  expect(refund.body.result.successful).toBe(true);
});
afterAll(() => t?.stop());

const list = (body: Record<string, unknown>, merchant = m) => merchant.call('retrieve-payments', body);
const tokens = (payments: Array<{ token: string }>) => payments.map((x) => x.token);

describe('retrieve-payments', () => {
  it('without a selection lists the last 7 days including today, in the workspace time zone', async () => {
    const res = await list({});

    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ successful: true, message: null });
    expect(res.body.created_from).toBe('2030-03-05');
    expect(tokens(res.body.payments)).toEqual([p.B, p.C, p.D]);
  });

  it('answers created_to as well as created_from when listing by dates', async () => {
    const byDefault = await list({});
    const byDates = await list({ created_from: '2030-03-09', created_to: '2030-03-11' });

    expect(byDefault.body.created_to).toBe('2030-03-11');
    expect(byDates.body).toMatchObject({ created_from: '2030-03-09', created_to: '2030-03-11' });
  });

  it('counts a payment made at 01:30 Istanbul time on 11 March to that day, not to 10 March (UTC)', async () => {
    const eleventh = await list({ created_from: '2030-03-11', created_to: '2030-03-11' });
    const tenth = await list({ created_from: '2030-03-10', created_to: '2030-03-10' });

    expect(tokens(eleventh.body.payments)).toEqual([p.C, p.D]);
    expect(tenth.body.payments).toEqual([]);
  });

  it('follows the workspace time zone when it changes', async () => {
    const utc = await seedWorkspace(t);
    await updateWorkspace(t.gateway.services.db, utc.team, { timeZone: 'UTC' });
    await t.gateway.admission.synced();
    const token = await payAt(utc, '2030-03-10T22:30:00.000Z', { transaction: { channel_reference: 'UTC-1' } });
    t.clock.set(NOW);

    const tenth = await list({ created_from: '2030-03-10', created_to: '2030-03-10' }, utc);

    expect(tokens(tenth.body.payments)).toEqual([token]);
  });

  it('accepts a range of exactly 7 days', async () => {
    const res = await list({ created_from: '2030-03-04', created_to: '2030-03-10' });

    expect(res.status).toBe(200);
    expect(res.body.created_from).toBe('2030-03-04');
    expect(tokens(res.body.payments)).toEqual([p.A, p.B]);
  });

  it('by channel_reference finds every payment with it, whatever its date, and shows no dates', async () => {
    const res = await list({ channel_reference: 'LIST-1' });

    expect(tokens(res.body.payments)).toEqual([p.A, p.B]);
    expect('created_from' in res.body).toBe(false);
    expect('created_to' in res.body).toBe(false);
  });

  it("never shows another workspace's payments", async () => {
    const byReference = await list({ channel_reference: 'LIST-1' });
    const byDates = await list({});

    expect(tokens(byReference.body.payments)).not.toContain(p.elsewhere);
    expect(tokens(byDates.body.payments)).not.toContain(p.elsewhere);
  });

  it('shows each payment with its status, amounts, card digits and refunds', async () => {
    const res = await list({ channel_reference: 'LIST-3' });

    expect(res.body.payments).toEqual([
      expect.objectContaining({
        token: p.D,
        channel_token: m.channelToken,
        channel_reference: 'LIST-3',
        status: 'successful',
        payment_status: 'partially_refunded',
        security_type: 'non_secure',
        amount: '250.00',
        base_amount: '250.00',
        refunded_amount: '10.00',
        currency: 'TRY',
        installment_number: 1,
        card_first_digits: '41111111',
        card_last_four_digits: '1111',
        card_scheme: 'visa',
        customer: { channel_reference: 'CUST-1' },
        conversion: null,
        refunds: [{ type: 'refund', status: 'succeeded', amount: '10.00', created_at: '2030-03-11T07:00:00.000000Z' }],
        created_at: '2030-03-11T06:00:00.000000Z',
      }),
    ]);
  });

  it('shows a failed payment with its provider message', async () => {
    const res = await list({ channel_reference: 'LIST-1' });

    expect(res.body.payments[1]).toMatchObject({ token: p.B, status: 'failed', payment_status: null, error_message: 'Yetersiz bakiye' });
  });

  it.each([
    ['a range of 8 days', { created_from: '2030-03-04', created_to: '2030-03-11' }, 'created_to', 'Tarih aralığı en fazla 7 gün olabilir.'],
    ['an end before the start', { created_from: '2030-03-11', created_to: '2030-03-10' }, 'created_to', 'Bitiş tarihi başlangıç tarihinden önce olamaz.'],
    ['a start without an end', { created_from: '2030-03-11' }, 'created_to', 'Başlangıç ve bitiş tarihi birlikte gönderilmelidir.'],
    ['an end without a start', { created_to: '2030-03-11' }, 'created_from', 'Başlangıç ve bitiş tarihi birlikte gönderilmelidir.'],
    ['a date in another form', { created_from: '11.03.2026', created_to: '2030-03-11' }, 'created_from', 'Tarih YYYY-AA-GG biçiminde olmalıdır.'],
    ['an impossible date', { created_from: '2030-02-30', created_to: '2030-03-01' }, 'created_from', 'Tarih YYYY-AA-GG biçiminde olmalıdır.'],
    ['channel_reference together with dates', { channel_reference: 'LIST-1', created_from: '2030-03-10', created_to: '2030-03-11' }, 'channel_reference', 'Tarih aralığı ile birlikte gönderilemez.'],
  ])('rejects %s with 422', async (_name, body, path, text) => {
    const res = await list(body);

    expect(res.status).toBe(422);
    expect(res.body.errors[path]).toEqual([text]);
  });
});

async function gql(query: string, variables: Record<string, unknown> = {}, token: string | null = dashboardToken) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${t.gateway.baseUrl}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- GraphQL answers are read loosely
  return { status: res.status, body: (await res.json()) as { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> } };
}

const PAYMENTS = `query ($first: Int, $after: String, $last: Int, $before: String, $filter: PaymentFilter) {
  payments(first: $first, after: $after, last: $last, before: $before, filter: $filter) {
    edges { cursor node { token status paymentStatus } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

const PAYMENT = `query ($token: String!) {
  payment(token: $token) { token status paymentStatus amount refundedAmount refunds { type status amount } customer { channelReference } }
}`;

const nodes = (connection: { edges: Array<{ node: { token: string } }> }) => connection.edges.map((e) => e.node);

describe('GraphQL payments', () => {
  it('pages newest first with a cursor', async () => {
    const first = await gql(PAYMENTS, { first: 3 });
    const next = await gql(PAYMENTS, { first: 3, after: first.body.data.payments.pageInfo.endCursor });

    expect(tokens(nodes(first.body.data.payments))).toEqual([p.D, p.C, p.B]);
    expect(first.body.data.payments.pageInfo).toMatchObject({ hasNextPage: true, endCursor: first.body.data.payments.edges[2].cursor });
    expect(tokens(nodes(next.body.data.payments))).toEqual([p.A]);
    expect(next.body.data.payments.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true, endCursor: next.body.data.payments.edges[0].cursor });
  });

  it('reaches every row exactly once page by page with first/after, and back with last/before', async () => {
    const all = tokens(nodes((await gql(PAYMENTS, { first: 200 })).body.data.payments));
    const seen: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const res = await gql(PAYMENTS, { first: 1, after });
      expect(res.body.errors).toBeUndefined();
      seen.push(...tokens(nodes(res.body.data.payments)));
      if (!res.body.data.payments.pageInfo.hasNextPage) break;
      after = res.body.data.payments.pageInfo.endCursor;
    }
    const lastTwo = await gql(PAYMENTS, { last: 2 });
    const beforeThose = await gql(PAYMENTS, { last: 2, before: lastTwo.body.data.payments.pageInfo.startCursor });

    expect(all).toEqual([p.D, p.C, p.B, p.A]);
    expect(seen).toEqual(all);
    expect(tokens(nodes(lastTwo.body.data.payments))).toEqual([p.B, p.A]);
    expect(tokens(nodes(beforeThose.body.data.payments))).toEqual([p.D, p.C]);
  });

  it.each([
    ['status', { status: ['failed'] }, () => [p.B]],
    ['status of a started 3D payment', { status: 'started' }, () => [p.C]],
    ['any of several statuses', { status: ['started', 'failed'] }, () => [p.C, p.B]],
    ['payment status', { paymentStatus: ['partially_refunded'] }, () => [p.D]],
    ['channel reference', { channelReference: 'LIST-1' }, () => [p.B, p.A]],
    ['creation time', { created: { from: '2030-03-04T21:00:00Z', to: '2030-03-11T00:00:00Z' } }, () => [p.C, p.B]],
    ['creation time open at one end', { created: { from: '2030-03-10T00:00:00Z' } }, () => [p.D, p.C]],
  ])('filters by %s', async (_name, filter, expected) => {
    const res = await gql(PAYMENTS, { filter });

    expect(res.body.errors).toBeUndefined();
    expect(tokens(nodes(res.body.data.payments))).toEqual(expected());
  });

  it.each([
    ['a variable', PAYMENTS, { filter: { status: ['bogus'] } }],
    ['a literal', '{ payments(filter: { status: bogus }) { edges { node { token } } } }', {}],
    ['a string literal', '{ payments(filter: { paymentStatus: "paid" }) { edges { node { token } } } }', {}],
  ])('refuses a status outside the enum in %s as a GraphQL validation error, never a 500', async (_name, query, variables) => {
    const res = await gql(query, variables);

    expect([200, 400]).toContain(res.status);
    expect(res.body.data?.payments ?? null).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors![0]!.message).toMatch(/PaymentStatus|PaymentMoneyStatus/);
    expect(res.body.errors![0]!.message).not.toMatch(/prisma|invalid input value/i);
  });

  it('refuses a forged cursor without reaching the database', async () => {
    const forged = Buffer.from('GPC:S:not-a-uuid').toString('base64');
    const res = await gql(PAYMENTS, { first: 1, after: forged });
    const garbage = await gql(PAYMENTS, { first: 1, after: 'garbage' });

    expect(res.status).toBe(200);
    expect(res.body.errors?.[0]?.message).toBe('Invalid cursor');
    expect(garbage.status).toBe(200);
    expect(garbage.body.errors?.[0]?.message).toMatch(/^Invalid cursor/);
  });

  it("never lists another workspace's payments", async () => {
    const res = await gql(PAYMENTS, { first: 200 });

    expect(tokens(nodes(res.body.data.payments))).not.toContain(p.elsewhere);
  });

  it('reads every workspace for support staff, one with workspaceSlug; a dashboard token keeps its own whatever the slug', async () => {
    // Issued at the gateway's clock (2030 here): a support token lives 30 days from its issue.
    const support = await createAccessToken(t.gateway.services.db, null, 'support', { clock: t.clock });
    const query = `query ($slug: String) { payments(first: 200, workspaceSlug: $slug) { edges { node { token } } } }`;

    const everyWorkspace = tokens(nodes((await gql(query, {}, support)).body.data.payments));
    const oneWorkspace = tokens(nodes((await gql(query, { slug: other.team }, support)).body.data.payments));
    const ownDespiteSlug = tokens(nodes((await gql(query, { slug: other.team })).body.data.payments));

    expect(everyWorkspace).toEqual(expect.arrayContaining([p.A, p.B, p.C, p.D, p.elsewhere]));
    expect(oneWorkspace).toEqual([p.elsewhere]);
    expect(ownDespiteSlug).toEqual([p.D, p.C, p.B, p.A]);
  });

  it('needs a bearer token', async () => {
    const res = await gql(PAYMENTS, {}, null);

    expect(res.body.data?.payments ?? null).toBeNull();
    expect(res.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('GraphQL payment(token)', () => {
  it('shows the payment with its refunds', async () => {
    const res = await gql(PAYMENT, { token: p.D });

    expect(res.body.data.payment).toEqual({
      token: p.D,
      status: 'successful',
      paymentStatus: 'partially_refunded',
      amount: '250.00',
      refundedAmount: '10.00',
      refunds: [{ type: 'refund', status: 'succeeded', amount: '10.00' }],
      customer: { channelReference: 'CUST-1' },
    });
  });

  it("is null for another workspace's payment and for a malformed token", async () => {
    const foreign = await gql(PAYMENT, { token: p.elsewhere });
    const malformed = await gql(PAYMENT, { token: 'nope' });

    expect(foreign.body.data.payment).toBeNull();
    expect(malformed.body.data.payment).toBeNull();
  });
});
