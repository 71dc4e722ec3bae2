// customers and customer over /graphql: the list newest first with paging (name, e-mail, channel
// reference, number of payments, created), and one customer with contact data, payments, saved
// cards (first digits and last four only) and subscriptions; another workspace sees none of them.
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { recurringProduct, saveProducts, subscriptionBody } from '../subscriptions/support.ts';
import { gql } from '../helpers/webhooks.ts';

const { t, merchant: m, merchants } = useGateway({ merchant: true, merchants: { other: {} } });

const LIST = `query($first: Int, $after: String) { customers(first: $first, after: $after) {
  edges { node { token firstname lastname email channelReference paymentCount createdAt } } pageInfo { hasNextPage endCursor } } }`;
const ONE = `query($token: String!) { customer(token: $token) { token channelReference firstname lastname email phone address district province country paymentCount
  payments { token amount status } savedCards { firstDigits lastFourDigit expiryMonth expiryYear holderName isDefault } subscriptions { token status } } }`;

const ALI = { channel_reference: 'CUST-C1', firstname: 'Ali', lastname: 'Veli', email: 'ali@example.com', phone: '+905551112233', address: 'Bağdat Cd. 1', district: 'Kadıköy', province: 'İstanbul', country: 'TR' };
let dashboard = '';
const ids = { ali: '', burcu: '', payments: [] as string[], subscription: '' };

beforeAll(async () => {
  const first = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'CUST-PAY-1', amount: '10.00' }, customer: ALI, card: { should_save: true } }));
  t.clock.advance(1_000);
  const second = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'CUST-PAY-2', amount: '20.00' }, customer: ALI, card: { number: CARDS.insufficientFunds } }));
  ids.payments = [second.body.transaction.token, first.body.transaction.token];
  await saveProducts(m, [recurringProduct(m, 'CUST-PLAN')]);
  const sub = await m.call('subscription-payment', subscriptionBody(m, { subscription: { channel_reference: 'CUST-SUB-1' }, items: [{ channel_reference: 'CUST-PLAN' }], customer: ALI }));
  ids.subscription = sub.body.subscription.token;
  t.clock.advance(1_000);
  await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'CUST-PAY-3' }, customer: { channel_reference: 'CUST-C2', firstname: 'Burcu', lastname: 'Ak', email: 'burcu@example.com' } }));
  const rows = await t.gateway.services.db.customer.findMany({ where: { workspaceId: m.workspaceId } });
  ids.ali = rows.find((c) => c.channelReference === 'CUST-C1')!.id;
  ids.burcu = rows.find((c) => c.channelReference === 'CUST-C2')!.id;
  dashboard = await createAccessToken(t.gateway.services.db, m.team, 'dash');
});

describe('customers', () => {
  it('lists the workspace’s customers newest first, a page at a time, with their number of payments', async () => {
    const page1 = (await gql(t, dashboard, LIST, { first: 1 })).body.data.customers;
    expect(page1.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { token: ids.burcu, firstname: 'Burcu', lastname: 'Ak', email: 'burcu@example.com', channelReference: 'CUST-C2', paymentCount: 1, createdAt: expect.any(String) },
    ]);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = (await gql(t, dashboard, LIST, { first: 1, after: page1.pageInfo.endCursor })).body.data.customers;
    expect(page2.edges.map((e: { node: { token: string; paymentCount: number } }) => [e.node.token, e.node.paymentCount])).toEqual([[ids.ali, 2]]);
    expect(page2.pageInfo.hasNextPage).toBe(false);
  });

  it('one customer: contact data, payments newest first, saved cards masked, subscriptions', async () => {
    const res = await gql(t, dashboard, ONE, { token: ids.ali });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.customer).toEqual({
      token: ids.ali,
      channelReference: 'CUST-C1',
      firstname: 'Ali', lastname: 'Veli', email: 'ali@example.com', phone: '+905551112233', address: 'Bağdat Cd. 1', district: 'Kadıköy', province: 'İstanbul', country: 'TR',
      paymentCount: 2,
      payments: [
        { token: ids.payments[0], amount: '20.00', status: 'failed' },
        { token: ids.payments[1], amount: '10.00', status: 'successful' },
      ],
      savedCards: [{ firstDigits: '41111111', lastFourDigit: '1111', expiryMonth: '12', expiryYear: '2030', holderName: 'AYSE YILMAZ', isDefault: true }],
      subscriptions: [{ token: ids.subscription, status: 'pending' }],
    });
    expect(JSON.stringify(res.body)).not.toContain('4111111111111111');
  });

  it('another workspace lists none of them and cannot open one; support can', async () => {
    const theirs = await createAccessToken(t.gateway.services.db, merchants.other.team, 'dash');
    expect((await gql(t, theirs, LIST, { first: 10 })).body.data.customers.edges).toEqual([]);
    expect((await gql(t, theirs, ONE, { token: ids.ali })).body.data.customer).toBeNull();
    expect((await gql(t, dashboard, ONE, { token: 'not-a-token' })).body.data.customer).toBeNull();
    const support = await createAccessToken(t.gateway.services.db, null, 'support');
    expect((await gql(t, support, ONE, { token: ids.ali })).body.data.customer.channelReference).toBe('CUST-C1');
  });
});
