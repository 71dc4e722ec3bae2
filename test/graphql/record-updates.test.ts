// orderUpdated, subscriptionUpdated and paymentLinkUpdated (graphql-ws, for the dashboard): each streams the record
// itself when an event about it commits, read with the fields asked for; another workspace's
// subscriber sees nothing of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { orderBody } from '../helpers/orders.ts';
import { answerAcs, GOOD_CARD, submitCard } from '../helpers/checkout.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { openSubscription, payPeriod, recurringProduct, saveProducts } from '../subscriptions/support.ts';

let t: TestGateway;
let m: Merchant;
let other: Merchant;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestGateway();
  m = await seedWorkspace(t);
  other = await seedWorkspace(t);
});
afterAll(async () => {
  for (const c of clients) await c.dispose();
  await t?.stop();
});

async function client(team: string): Promise<Client> {
  const token = await createAccessToken(t.gateway.services.db, team, 'dash');
  const c = createClient({ url: t.gateway.baseUrl.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${token}` }, lazy: false });
  clients.push(c);
  return c;
}

/** Collects what a subscription sends; resolves `first` with the first value. */
function watch(c: Client, query: string, variables: Record<string, unknown>) {
  const received: unknown[] = [];
  let resolveFirst!: (v: unknown) => void;
  const first = new Promise<unknown>((resolve) => (resolveFirst = resolve));
  c.subscribe({ query, variables }, { next: (v) => { received.push(v); resolveFirst(v); }, error: (e) => received.push({ error: e }), complete: () => {} });
  return { received, first };
}

// graphql-ws sends `subscribe` at once, but the server starts listening a moment later.
const settle = () => new Promise((r) => setTimeout(r, 300));

describe('record subscriptions', () => {
  it('subscriptionUpdated sends the subscription, active with its period, when its first period is paid; not to another workspace', async () => {
    await saveProducts(m, [recurringProduct(m, 'PLAN-LIVE', { amount: '42.00' })]);
    const { token } = await openSubscription(m, { items: [{ channel_reference: 'PLAN-LIVE' }] });
    const query = `subscription($t: String!) { subscriptionUpdated(token: $t) { token status amount currency checkoutUrl } }`;
    const mine = watch(await client(m.team), query, { t: token });
    const theirs = watch(await client(other.team), query, { t: token });
    await settle();

    await payPeriod(t, token);
    expect(await mine.first).toEqual({ data: { subscriptionUpdated: { token, status: 'active', amount: '42.00', currency: 'TRY', checkoutUrl: null } } });
    await settle();
    expect(theirs.received).toEqual([]);
  });

  it('orderUpdated sends the order, paid, when its checkout page payment succeeds', async () => {
    const res = await m.call('order-payment', orderBody(m));
    const { token, checkout_url: checkoutUrl } = res.body.order as { token: string; checkout_url: string };
    const live = watch(await client(m.team), `subscription($t: String!) { orderUpdated(token: $t) { token status amount } }`, { t: token });
    await settle();

    const submitted = await submitCard(checkoutUrl);
    await answerAcs(t.gateway.baseUrl, submitted.location!, 'approve');
    expect(await live.first).toEqual({ data: { orderUpdated: { token, status: 'paid', amount: res.body.order.amount } } });
  });

  it('paymentLinkUpdated sends the link when a payment on its page succeeds', async () => {
    const created = await m.call(
      'create-payment-link',
      { payment_link: { currency: 'TRY', reference: 'LIVE-1', items: [{ name: 'Buket', unit_amount: '300.00' }] } },
      { form: 'timestamp', timestamp: Math.floor(t.clock.now().getTime() / 1000) },
    );
    const { token, checkout_url: checkoutUrl } = created.body.payment_link as { token: string; checkout_url: string };
    const live = watch(await client(m.team), `subscription($t: String!) { paymentLinkUpdated(token: $t) { token reference amount transactionsCount } }`, { t: token });
    await settle();

    const form = new URLSearchParams({ ...GOOD_CARD, firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com' }).toString();
    const submitted = await fetch(checkoutUrl, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form, redirect: 'manual' });
    await answerAcs(t.gateway.baseUrl, submitted.headers.get('location')!, 'approve');
    expect(await live.first).toEqual({ data: { paymentLinkUpdated: { token, reference: 'LIVE-1', amount: '300.00', transactionsCount: 1 } } });
  });
});
