// retrieve-orders (designed like retrieve-payment-links: by token, by channel_reference, or by a
// date range of at most 7 days, default the last 7 days) and the GraphQL `order` / `orders`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { gql, type GqlResult } from '../helpers/webhooks.ts';
import { payOnCheckout } from '../helpers/checkout.ts';
import { MSG, orderBody } from '../helpers/orders.ts';

let t: TestGateway;
let m: Merchant;
let other: Merchant;
let noOrders: Merchant;
const tokens: Record<string, string> = {};

// 2026-03-10 12:00 in Istanbul (UTC+3).
const clock = new ManualClock('2026-03-10T09:00:00Z');

async function open(m: Merchant, reference: string, at: string, over: Parameters<typeof orderBody>[1] = {}): Promise<string> {
  clock.set(at);
  const res = await m.call('order-payment', orderBody(m, { ...over, order: { channel_reference: reference, ...over.order } }));
  if (res.status !== 200) throw new Error(res.text);
  return res.body.order.token;
}

beforeAll(async () => {
  t = await startTestGateway({ clock });
  m = await seedWorkspace(t);
  other = await seedWorkspace(t);
  noOrders = await seedWorkspace(t, { plan: {} });
  tokens.old = await open(m, 'ORD-OLD-1', '2026-02-01T09:00:00Z');
  // 2026-03-02 23:30 UTC is already 2026-03-03 in Istanbul.
  tokens.edge = await open(m, 'ORD-EDGE-2', '2026-03-02T23:30:00Z');
  tokens.a = await open(m, 'ORD-A-3', '2026-03-09T08:00:00Z', { items: [{ channel_reference: 'P-1', name: 'Defter', quantity: 3, unit_amount: '20.00', tax_rate: 20 }] });
  tokens.b = await open(m, 'ORD-B-4', '2026-03-10T08:00:00Z');
  tokens.b2 = await open(m, 'ORD-B-4', '2026-03-10T08:30:00Z');
  tokens.foreign = await open(other, 'ORD-A-3', '2026-03-10T08:00:00Z');
  clock.set('2026-03-10T09:00:00Z');
  await payOnCheckout(`${t.gateway.baseUrl}/checkout/order/${tokens.a}`, {});
});
afterAll(() => t?.stop());

describe('retrieve-orders', () => {
  it('by token: the order with its items, status, customer and transaction', async () => {
    const res = await m.call('retrieve-orders', { token: tokens.a });
    const payment = await t.gateway.services.db.payment.findFirstOrThrow({ where: { orderId: tokens.a } });

    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['result', 'orders']);
    expect(res.body.orders).toEqual([
      {
        token: tokens.a,
        channel_token: m.channelToken,
        channel_reference: 'ORD-A-3',
        status: 'paid',
        amount: '60.00',
        subtotal: '50.00',
        tax_amount: '10.00',
        currency: 'TRY',
        description: 'Sipariş 1001',
        success_url: 'http://127.0.0.1:9/success',
        cancel_url: 'http://127.0.0.1:9/cancel',
        payment_provider_token: null,
        checkout_url: `${t.gateway.baseUrl}/checkout/order/${tokens.a}`,
        customer: { channel_reference: 'CUST-1' },
        items: [{ channel_reference: 'P-1', name: 'Defter', quantity: 3, unit_amount: '20.00', tax_rate: '20.00' }],
        transaction: {
          token: payment.id,
          status: 'successful',
          payment_status: 'paid',
          security_type: 'secure',
          amount: '60.00',
          base_amount: '60.00',
          refunded_amount: '0.00',
          currency: 'TRY',
          installment_number: 1,
          is_test: true,
          error_code: null,
          error_message: null,
          conversion: null,
          created_at: '2026-03-10T09:00:00.000000Z',
          completed_at: '2026-03-10T09:00:00.000000Z',
        },
        paid_at: '2026-03-10T09:00:00.000000Z',
        created_at: '2026-03-09T08:00:00.000000Z',
      },
    ]);
  });

  it('an open order has no transaction', async () => {
    const res = await m.call('retrieve-orders', { token: tokens.b });
    expect(res.body.orders[0]).toMatchObject({ status: 'open', transaction: null, paid_at: null });
  });

  it("by token of another workspace's order, or of none: an empty list", async () => {
    expect((await m.call('retrieve-orders', { token: tokens.foreign })).body).toEqual({ result: { successful: true, message: null }, orders: [] });
    expect((await m.call('retrieve-orders', { token: '00000000-0000-4000-8000-000000000000' })).body.orders).toEqual([]);
  });

  it('by channel_reference: every order opened with it, oldest first, only this workspace', async () => {
    const res = await m.call('retrieve-orders', { channel_reference: 'ORD-B-4' });
    expect(res.body.orders.map((o: { token: string }) => o.token)).toEqual([tokens.b, tokens.b2]);
    const a = await m.call('retrieve-orders', { channel_reference: 'ORD-A-3' });
    expect(a.body.orders.map((o: { token: string }) => o.token)).toEqual([tokens.a]);
  });

  it('with an empty body: the last 7 days including today in the workspace time zone', async () => {
    const res = await m.call('retrieve-orders', {});
    expect(res.body.created_from).toBe('2026-03-04');
    expect(res.body.created_to).toBe('2026-03-10');
    expect(res.body.orders.map((o: { token: string }) => o.token)).toEqual([tokens.a, tokens.b, tokens.b2]);
  });

  it('by dates: days in the workspace time zone, 7 days at most', async () => {
    const res = await m.call('retrieve-orders', { created_from: '2026-03-03', created_to: '2026-03-09' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created_from: '2026-03-03', created_to: '2026-03-09' });
    expect(res.body.orders.map((o: { token: string }) => o.token)).toEqual([tokens.edge, tokens.a]);
  });

  const rejects: Array<{ name: string; body: Record<string, unknown>; path: string; message: string }> = [
    { name: 'token with channel_reference', body: { token: '00000000-0000-4000-8000-000000000000', channel_reference: 'X-1' }, path: 'token', message: MSG.tokenNotCombinable },
    { name: 'token with dates', body: { token: '00000000-0000-4000-8000-000000000000', created_from: '2026-03-01', created_to: '2026-03-02' }, path: 'token', message: MSG.tokenNotCombinable },
    { name: 'channel_reference with dates', body: { channel_reference: 'X-1', created_from: '2026-03-01', created_to: '2026-03-02' }, path: 'channel_reference', message: MSG.notWithDates },
    { name: 'token not a UUID', body: { token: 'abc' }, path: 'token', message: MSG.invalidUuid },
    { name: 'range longer than 7 days', body: { created_from: '2026-03-01', created_to: '2026-03-08' }, path: 'created_to', message: MSG.dateRangeTooLong },
    { name: 'created_to before created_from', body: { created_from: '2026-03-05', created_to: '2026-03-04' }, path: 'created_to', message: MSG.dateRangeOrder },
    { name: 'created_from alone', body: { created_from: '2026-03-05' }, path: 'created_to', message: MSG.datesTogether },
    { name: 'date not YYYY-MM-DD', body: { created_from: '05.03.2026', created_to: '2026-03-06' }, path: 'created_from', message: MSG.dateFormat },
    { name: 'channel_reference over 255 characters', body: { channel_reference: 'R'.repeat(256) }, path: 'channel_reference', message: MSG.tooLong255 },
  ];

  it.each(rejects)('rejects $name with 422', async ({ body, path, message }) => {
    const res = await m.call('retrieve-orders', body);
    expect(res.status).toBe(422);
    expect(res.body.result).toEqual({ successful: false, message });
    expect(res.body.errors[path]).toEqual([message]);
  });

  it('is 403 when the plan does not cover orders', async () => {
    const res = await noOrders.call('retrieve-orders', {});
    expect(res.status).toBe(403);
    expect(res.body.result.message).toBe(MSG.planOrders);
  });
});

describe('GraphQL order and orders', () => {
  it('order(token) for a dashboard token, with items, payments and transaction; another workspace reads null', async () => {
    const token = await createAccessToken(t.gateway.services.db, m.team, 'dash');
    const query = `query($token: String!) { order(token: $token) {
      token status amount subtotal taxAmount currency checkoutUrl customer { channelReference }
      items { name quantity unitAmount taxRate } transaction { token status paymentStatus } payments { status } } }`;

    const res = await gql(t, token, query, { token: tokens.a });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.order).toMatchObject({
      token: tokens.a,
      status: 'paid',
      amount: '60.00',
      subtotal: '50.00',
      taxAmount: '10.00',
      items: [{ name: 'Defter', quantity: 3, unitAmount: '20.00', taxRate: '20.00' }],
      transaction: { status: 'successful', paymentStatus: 'paid' },
      payments: [{ status: 'successful' }],
    });
    expect((await gql(t, token, query, { token: tokens.foreign })).body.data.order).toBeNull();
    expect((await gql(t, token, query, { token: 'nope' })).body.data.order).toBeNull();
  });

  it('orders: newest first, filtered by status, paged', async () => {
    const token = await createAccessToken(t.gateway.services.db, m.team, 'dash-2');
    const query = `query($filter: OrderFilter, $after: String) { orders(first: 2, filter: $filter, after: $after) { edges { node { token status } } pageInfo { hasNextPage endCursor } } }`;
    const list = (res: GqlResult) => res.body.data.orders.edges.map((e: { node: { token: string } }) => e.node);

    const first = await gql(t, token, query, {});
    expect(list(first).map((o: { token: string }) => o.token)).toEqual([tokens.b2, tokens.b]);
    expect(first.body.data.orders.pageInfo.hasNextPage).toBe(true);
    const next = await gql(t, token, query, { after: first.body.data.orders.pageInfo.endCursor });
    expect(list(next).map((o: { token: string }) => o.token)).toEqual([tokens.a, tokens.edge]);
    const paid = await gql(t, token, query, { filter: { status: ['paid'] } });
    expect(list(paid)).toEqual([{ token: tokens.a, status: 'paid' }]);
  });

  it('orders: filtered by channel reference and creation time, never another workspace, with relations of each row', async () => {
    const token = await createAccessToken(t.gateway.services.db, m.team, 'dash-4');
    const query = `query($filter: OrderFilter) { orders(first: 200, filter: $filter) { edges { node {
      token subtotal customer { channelReference } items { name quantity } transaction { status } payments { status } } } } }`;
    const list = async (filter: Record<string, unknown>) =>
      (await gql(t, token, query, { filter })).body.data.orders.edges.map((e: { node: { token: string } }) => e.node);

    const byReference = await list({ channelReference: 'ORD-A-3' });
    const byTime = await list({ created: { from: '2026-03-02T23:30:00Z', to: '2026-03-10T08:00:00Z' } });

    expect(byReference).toEqual([
      { token: tokens.a, subtotal: '50.00', customer: { channelReference: expect.any(String) }, items: [{ name: 'Defter', quantity: 3 }], transaction: { status: 'successful' }, payments: [{ status: 'successful' }] },
    ]);
    expect(byTime.map((o: { token: string }) => o.token)).toEqual([tokens.a, tokens.edge]);
    expect((await list({})).map((o: { token: string }) => o.token)).not.toContain(tokens.foreign);
  });

  it('orders: a status outside OrderStatus is a GraphQL validation error', async () => {
    const token = await createAccessToken(t.gateway.services.db, m.team, 'dash-5');
    const res = await gql(t, token, '{ orders(filter: { status: [shipped] }) { edges { node { token } } } }');

    expect([200, 400]).toContain(res.status);
    expect(res.body.data?.orders ?? null).toBeNull();
    expect(res.body.errors?.[0]?.message).toMatch(/OrderStatus/);
  });

  it('orderPayment mutation opens an order with the same rules', async () => {
    const token = await createAccessToken(t.gateway.services.db, m.team, 'dash-3');
    const res = await gql(t, token, `mutation($input: OrderPaymentInput!) { orderPayment(input: $input) { result { successful } order { amount status } errors { path code } } }`, {
      input: { order: { channelToken: m.channelToken, channelReference: 'GQL-1', successUrl: 'https://shop.example/ok', items: [] }, customer: { channelReference: 'C-1' } },
    });
    expect(res.body.data.orderPayment).toEqual({ result: { successful: false }, order: null, errors: [{ path: ['order', 'items'], code: 'order_items_required' }] });
  });
});
