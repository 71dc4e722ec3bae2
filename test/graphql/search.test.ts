// search(q) over /graphql: each kind of term (token, channel reference, link reference, customer
// name and e-mail in any case, card last four, amount) finds exactly the records it names, grouped
// by kind; another workspace's records with the same reference, amount, card and customer are never
// found; support staff search the workspace they name.
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { useGateway } from '../helpers/fixture.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { orderBody } from '../helpers/orders.ts';
import { recurringProduct, saveProducts, subscriptionBody } from '../subscriptions/support.ts';
import { gql } from '../helpers/webhooks.ts';

const { t, merchant: m, merchants } = useGateway({ merchant: true, merchants: { other: {} } });

const QUERY = `query($q: String!, $slug: String) { search(q: $q, workspaceSlug: $slug) {
  payments { token cardLastFourDigits } orders { token } subscriptions { token } paymentLinks { token } customers { token channelReference } } }`;

const ZEYNEP = { channel_reference: 'CUST-S1', firstname: 'Zeynep', lastname: 'Kaya', email: 'zeynep.kaya@example.org' };
const MEHMET = { channel_reference: 'CUST-S2', firstname: 'Mehmet', lastname: 'Demir', email: 'mehmet@example.net' };

async function pay(merchant: Merchant, reference: string, amount: string, card: string, customer: Record<string, string>): Promise<string> {
  const res = await merchant.call('regular-payment', paymentBody(merchant, { transaction: { channel_reference: reference, amount }, card: { number: card }, customer }));
  expect(res.body.result.successful).toBe(true);
  return res.body.transaction.token;
}

const ids = { p1: '', p2: '', order: '', subscription: '', link: '', linkReference: '', zeynep: '', mehmet: '' };
let dashboard = '';
let support = '';

beforeAll(async () => {
  ids.p1 = await pay(m, 'SRCH-PAY-1', '123.45', CARDS.mastercard, ZEYNEP);
  ids.p2 = await pay(m, 'SRCH-PAY-2', '250.00', CARDS.approved, MEHMET);
  const order = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'SRCH-ORD-1' }, customer: MEHMET }));
  ids.order = order.body.order.token;
  await saveProducts(m, [recurringProduct(m, 'SRCH-PLAN')]);
  const sub = await m.call('subscription-payment', subscriptionBody(m, { subscription: { channel_reference: 'SRCH-SUB-1' }, items: [{ channel_reference: 'SRCH-PLAN' }], customer: ZEYNEP }));
  ids.subscription = sub.body.subscription.token;
  const ts = { form: 'timestamp' as const, get timestamp() { return Math.floor(t.clock.now().getTime() / 1000); } };
  const link = await m.call('create-payment-link', { payment_link: { currency: 'TRY', items: [{ name: 'Kupa', quantity: 1, unit_amount: '75.00' }] } }, ts);
  expect(link.status).toBe(200);
  ids.link = link.body.payment_link.token;
  ids.linkReference = link.body.payment_link.reference;
  const customers = await t.gateway.services.db.customer.findMany({ where: { workspaceId: m.workspaceId } });
  ids.zeynep = customers.find((c) => c.channelReference === 'CUST-S1')!.id;
  ids.mehmet = customers.find((c) => c.channelReference === 'CUST-S2')!.id;
  // The same reference, amount, card and customer in another workspace: never found from m.
  await pay(merchants.other, 'SRCH-PAY-1', '123.45', CARDS.mastercard, ZEYNEP);
  dashboard = await createAccessToken(t.gateway.services.db, m.team, 'dash');
  support = await createAccessToken(t.gateway.services.db, null, 'support');
});

type Hits = Record<'payments' | 'orders' | 'subscriptions' | 'paymentLinks' | 'customers', { token: string }[]>;

async function found(q: string, token = dashboard, slug?: string): Promise<Record<string, string[]>> {
  const res = await gql(t, token, QUERY, { q, slug });
  expect(res.body.errors).toBeUndefined();
  const hits = res.body.data.search as Hits;
  return Object.fromEntries(Object.entries(hits).map(([kind, rows]) => [kind, rows.map((r) => r.token)]));
}

const none = { payments: [], orders: [], subscriptions: [], paymentLinks: [], customers: [] };

describe('search', () => {
  it('by token: the one record of that token, of whichever kind', async () => {
    expect(await found(ids.p1)).toEqual({ ...none, payments: [ids.p1] });
    expect(await found(ids.order.toUpperCase())).toEqual({ ...none, orders: [ids.order] });
    expect(await found(ids.subscription)).toEqual({ ...none, subscriptions: [ids.subscription] });
    expect(await found(ids.link)).toEqual({ ...none, paymentLinks: [ids.link] });
    // A customer found brings its payments, orders and subscriptions.
    expect(await found(` ${ids.zeynep} `)).toEqual({ ...none, customers: [ids.zeynep], payments: [ids.p1], subscriptions: [ids.subscription] });
  });

  it('by channel reference (payment, order, subscription, customer) and by a link reference', async () => {
    expect(await found('SRCH-PAY-1')).toEqual({ ...none, payments: [ids.p1] });
    expect(await found('SRCH-ORD-1')).toEqual({ ...none, orders: [ids.order] });
    expect(await found('SRCH-SUB-1')).toEqual({ ...none, subscriptions: [ids.subscription] });
    expect(await found(ids.linkReference)).toEqual({ ...none, paymentLinks: [ids.link] });
    expect(await found('CUST-S2')).toEqual({ ...none, customers: [ids.mehmet], payments: [ids.p2], orders: [ids.order] });
  });

  it("by customer name or e-mail, any part and any case: the customer and the customer's records", async () => {
    const zeynep = { ...none, customers: [ids.zeynep], payments: [ids.p1], subscriptions: [ids.subscription] };
    expect(await found('zeynep')).toEqual(zeynep);
    expect(await found('ZEYNEP kaya')).toEqual(zeynep);
    expect(await found('kaya@example')).toEqual(zeynep);
    expect(await found('mehmet@example.net')).toEqual({ ...none, customers: [ids.mehmet], payments: [ids.p2], orders: [ids.order] });
    expect(await found('zeynep demir')).toEqual(none);
    // LIKE's wildcards are text here, not patterns.
    expect(await found('%%%')).toEqual(none);
    expect(await found('___')).toEqual(none);
    expect(await found('zeynep_kaya')).toEqual(none);
  });

  it('by card last four and by amount ("250" or "123.45"); never a card number', async () => {
    const res = await gql(t, dashboard, QUERY, { q: '4444' });
    expect(res.body.data.search.payments).toEqual([{ token: ids.p1, cardLastFourDigits: '4444' }]);
    expect(JSON.stringify(res.body)).not.toContain(CARDS.mastercard);
    // A whole card number is read as its last four only (not as an amount or a reference).
    const byNumber = await gql(t, dashboard, QUERY, { q: '5555 5555 5555 4444' });
    expect(byNumber.body.data.search.payments).toEqual([{ token: ids.p1, cardLastFourDigits: '4444' }]);
    expect(JSON.stringify(byNumber.body)).not.toMatch(/5555 ?5555/);
    expect(await found('123.45')).toEqual({ ...none, payments: [ids.p1] });
    expect(await found('250')).toEqual({ ...none, payments: [ids.p2] });
    expect(await found('100.00')).toEqual({ ...none, orders: [ids.order] });
  });

  it('support staff search the workspace they name; a workspace that does not exist finds nothing', async () => {
    expect(await found('SRCH-PAY-1', support, m.team)).toEqual({ ...none, payments: [ids.p1] });
    const theirs = await found('SRCH-PAY-1', support, merchants.other.team);
    expect(theirs.payments).toHaveLength(1);
    expect(theirs.payments[0]).not.toBe(ids.p1);
    expect(await found('SRCH-PAY-1', support, 'no-such-workspace')).toEqual(none);
    // The slug is for support only: a dashboard token keeps its own workspace.
    expect(await found('SRCH-PAY-1', dashboard, merchants.other.team)).toEqual({ ...none, payments: [ids.p1] });
  });

  it('short or blank text matches no name; text over 200 characters is refused with its field', async () => {
    expect(await found('ze')).toEqual(none);
    expect(await found('   ')).toEqual(none);
    const res = await gql(t, dashboard, QUERY, { q: 'x'.repeat(201) });
    expect(res.body.errors?.[0]).toMatchObject({ message: 'q: at most 200 characters', extensions: { code: 'BAD_USER_INPUT', field: 'q' } });
  });
});
