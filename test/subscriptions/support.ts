// Subscription test tools: request bodies, the catalog they use, row counts for "a rejected
// request writes nothing", paying a period through the page's domain function and the simulated
// 3D page, and moving a workspace's test clock.
import type { Merchant, TestGateway } from '../helpers/gateway.ts';
import { CARDS } from '../helpers/payments.ts';
import { answerAcs, type AcsOutcome } from '../helpers/checkout.ts';
import { findCheckoutSubscription, paySubscription, type PaySubscriptionOutcome } from '../../src/domain/subscriptions/pay.ts';
import { advanceTestClock, type Advance } from '../../src/domain/subscriptions/test-clock.ts';
import { message, type MessageCode } from '../../src/domain/messages.ts';

type Body = Record<string, unknown>;

/** A message of the catalog in Turkish (what a request without Accept-Language gets). */
export const msg = (code: MessageCode, params?: Record<string, string | number>) => message(code, 'tr', params);

export function recurringProduct(m: Merchant, reference: string, over: Body = {}): Body {
  return {
    product: { channel_token: m.channelToken, channel_reference: reference, name: `Plan ${reference}`, type: 'recurring', amount: '100.00', tax_rate: '20', period: 'monthly', currency: 'TRY', ...over },
  };
}

export async function saveProducts(m: Merchant, products: Body[]): Promise<void> {
  for (const p of products) {
    const res = await m.call('save-product', p);
    if (res.status !== 200) throw new Error(`save-product answered ${res.status}: ${res.text}`);
  }
}

export function subscriptionBody(m: Merchant, over: { subscription?: Body; items?: Body[]; customer?: Body } = {}): Body {
  return {
    subscription: {
      channel_token: m.channelToken,
      channel_reference: 'SUB-1001',
      items: over.items ?? [{ channel_reference: 'PLAN-BASIC' }],
      success_url: 'http://127.0.0.1:9/success',
      cancel_url: 'http://127.0.0.1:9/cancel',
      ...over.subscription,
    },
    customer: { channel_reference: 'CUST-1', firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com', ...over.customer },
  };
}

export async function openSubscription(m: Merchant, over: Parameters<typeof subscriptionBody>[1] = {}): Promise<{ token: string; checkoutUrl: string; body: Body }> {
  const res = await m.call('subscription-payment', subscriptionBody(m, over));
  if (res.status !== 200) throw new Error(`subscription-payment answered ${res.status}: ${res.text}`);
  return { token: res.body.subscription.token, checkoutUrl: res.body.subscription.checkout_url, body: res.body };
}

export async function subscriptionRowCounts(t: TestGateway) {
  const db = t.gateway.services.db;
  const [subscriptions, items, periods, customers, payments, events] = await Promise.all([
    db.subscription.count(),
    db.subscriptionItem.count(),
    db.subscriptionPeriod.count(),
    db.customer.count(),
    db.payment.count(),
    db.outboxEvent.count(),
  ]);
  return { subscriptions, items, periods, customers, payments, events };
}

export function cardFields(number: string = CARDS.approved) {
  return { holderName: 'AYSE YILMAZ', number, securityCode: '123', expiryMonth: '12', expiryYear: '2030' };
}

/** The page's card form (its domain function), then the simulated bank page answered. */
export async function payPeriod(
  t: TestGateway,
  token: string,
  opts: { card?: string; outcome?: 'approve' | 'decline' } = {},
): Promise<{ started: PaySubscriptionOutcome; acs: AcsOutcome | null }> {
  const s = t.gateway.services;
  const sub = await findCheckoutSubscription(s, token);
  if (!sub) throw new Error(`no subscription ${token}`);
  const started = await paySubscription(s, sub, { card: cardFields(opts.card), ip: '203.0.113.7' });
  if (started.kind !== 'redirect') return { started, acs: null };
  return { started, acs: await answerAcs(t.gateway.baseUrl, started.url, opts.outcome ?? 'approve') };
}

export async function advance(t: TestGateway, m: Merchant, duration: string): Promise<Advance> {
  const workspace = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
  return advanceTestClock(t.gateway.services, workspace, { duration });
}

export function subscriptionRow(t: TestGateway, token: string) {
  return t.gateway.services.db.subscription.findUniqueOrThrow({
    where: { id: token },
    include: { periods: { orderBy: { number: 'asc' }, include: { payments: { orderBy: { createdAt: 'asc' } } } } },
  });
}
