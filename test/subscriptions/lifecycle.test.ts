// A subscription's life with the test clock: the first period paid through the page's domain
// function and the simulated 3D page, renewals at month ends and on a leap day, a catalog price
// change from the next period, a declined renewal made good on the checkout page, cancelling with
// and without a paid period, renewal_limit, refunds, and the page's refusals. Each scenario has
// its own workspace, so each moves its own clock; the gateway's clock stands still at
// 31 Jan 2024 10:15 in Istanbul.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.ts';
import { StateError } from '../../src/domain/errors.ts';
import { findCheckoutSubscription, failedAttempt, paySubscription } from '../../src/domain/subscriptions/pay.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { eventsOf } from '../helpers/rows.ts';
import { CARDS } from '../helpers/payments.ts';
import { advance, cardFields, msg, openSubscription, payPeriod, recurringProduct, saveProducts, subscriptionRow } from './support.ts';

const START = '2024-01-31T07:15:00.000Z';
const micro = (iso: string) => iso.replace(/\.(\d{3})Z$/, '.$1000Z');

let t: TestGateway;

beforeAll(async () => {
  t = await startTestGateway({ clock: new ManualClock(START) });
});
afterAll(() => t?.stop());

async function merchantWithPlans(prices: Record<string, string> = { 'PLAN-M': '100.00' }, period: 'monthly' | 'yearly' = 'monthly'): Promise<Merchant> {
  const m = await seedWorkspace(t);
  await saveProducts(m, Object.entries(prices).map(([ref, amount]) => recurringProduct(m, ref, { amount, period })));
  return m;
}

const retrieve = async (m: Merchant, token: string) => {
  const res = await m.call('retrieve-subscription', { subscription: { token } });
  expect(res.status).toBe(200);
  return res.body.subscription;
};

async function outbox(token: string) {
  const rows = await t.gateway.services.db.outboxEvent.findMany({ where: { recordToken: token }, orderBy: [{ createdAt: 'asc' }, { kind: 'asc' }] });
  return rows.map((e) => ({ kind: e.kind, at: e.createdAt.toISOString(), transaction: e.transactionToken }));
}

/** Opens and pays the first period; returns the subscription token and the first payment. */
async function activeSubscription(m: Merchant, over: Parameters<typeof openSubscription>[1] = {}) {
  const { token } = await openSubscription(m, { items: [{ channel_reference: 'PLAN-M' }], ...over });
  const { started, acs } = await payPeriod(t, token);
  if (started.kind !== 'redirect' || !acs?.returnToken) throw new Error(`first payment did not go through: ${JSON.stringify(started)}`);
  return { token, paymentId: started.paymentId, acs };
}

describe('the first period, paid on the checkout page', () => {
  it('makes it active with its dates, stores the card as the default, sends subscription.active with the transaction and the browser to success_url', async () => {
    const m = await merchantWithPlans();
    const { token } = await openSubscription(m, { items: [{ channel_reference: 'PLAN-M', unit_amount: '80.00' }], subscription: { success_url: 'http://127.0.0.1:9/thanks?s=1' } });
    const { started, acs } = await payPeriod(t, token);

    expect(started.kind).toBe('redirect');
    expect(acs).toMatchObject({ status: 200, returnUrl: 'http://127.0.0.1:9/thanks?s=1', returnToken: started.paymentId });
    expect(await retrieve(m, token)).toMatchObject({
      status: 'active',
      amount: '80.00',
      is_test: true,
      starts_at: micro(START),
      ends_at: micro('2024-02-29T07:15:00.000Z'),
      paid_at: micro(START),
      cancelled_at: null,
      checkout_url: null,
    });
    const payment = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: started.paymentId } });
    expect(payment).toMatchObject({ source: 'subscription', securityType: 'secure', status: 'successful', amount: 8000n, subscriptionId: token, shouldSave: true });
    const cards = await m.call('saved-cards', { customer: { channel_token: m.channelToken, channel_reference: 'CUST-1' } });
    expect(cards.body.saved_cards).toHaveLength(1);
    expect(cards.body.saved_cards[0]).toMatchObject({ token: payment.storedCardId, is_default: true, last_four_digit: '1111' });
    expect(await outbox(token)).toEqual([{ kind: 'subscription.active', at: START, transaction: started.paymentId }]);
  });

  it("makes the page's card the default even when the customer already had another default card", async () => {
    const m = await merchantWithPlans();
    const saved = await m.call('save-card', { saved_card: { channel_token: m.channelToken }, customer: { channel_reference: 'CUST-1' }, card: { holder_name: 'A', number: CARDS.mastercard, expiry_month: '12', expiry_year: '2030' } });
    expect(saved.body.saved_card.is_default).toBe(true);
    const { paymentId } = await activeSubscription(m);

    const stored = (await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: paymentId } })).storedCardId;
    const cards = await m.call('saved-cards', { customer: { channel_token: m.channelToken, channel_reference: 'CUST-1' } });
    expect(cards.body.saved_cards.map((c: { token: string; is_default: boolean }) => [c.token, c.is_default])).toEqual([
      [stored, true],
      [saved.body.saved_card.token, false],
    ]);
  });

  it('a failed 3D step returns to the subscription page with the attempt; the subscription stays pending and payable', async () => {
    const m = await merchantWithPlans();
    const { token } = await openSubscription(m, { items: [{ channel_reference: 'PLAN-M' }] });
    const { started, acs } = await payPeriod(t, token, { outcome: 'decline' });

    expect(acs).toMatchObject({ status: 303, location: `/checkout/subscription/${token}?attempt=${started.paymentId}` });
    const sub = await findCheckoutSubscription(t.gateway.services, token);
    expect(await failedAttempt(t.gateway.services, sub!, started.paymentId)).toMatchObject({ errorCode: '3ds_failed' });
    expect(await retrieve(m, token)).toMatchObject({ status: 'pending', checkout_url: `${t.gateway.baseUrl}/checkout/subscription/${token}` });
    expect(await eventsOf(t, token)).toEqual([]);

    const again = await payPeriod(t, token);
    expect(again.acs?.returnToken).toBe(again.started.paymentId);
    expect((await retrieve(m, token)).status).toBe('active');
  });

  it('a card the bank refuses at the start comes back as failed; nothing changes', async () => {
    const m = await merchantWithPlans();
    const { token } = await openSubscription(m, { items: [{ channel_reference: 'PLAN-M' }] });
    const sub = await findCheckoutSubscription(t.gateway.services, token);
    const res = await paySubscription(t.gateway.services, sub!, { card: { ...cardFields('4111111111111112') } });
    expect(res).toMatchObject({ kind: 'failed', code: 'invalid_card_number' });
    expect((await retrieve(m, token)).status).toBe('pending');
  });

  it('a second attempt replaces one still waiting on its 3D page', async () => {
    const m = await merchantWithPlans();
    const { token } = await openSubscription(m, { items: [{ channel_reference: 'PLAN-M' }] });
    const sub = await findCheckoutSubscription(t.gateway.services, token);
    const first = await paySubscription(t.gateway.services, sub!, { card: cardFields() });
    const second = await payPeriod(t, token);

    expect(second.acs?.returnToken).toBe(second.started.paymentId);
    const old = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: first.paymentId } });
    expect(old).toMatchObject({ status: 'failed', errorCode: 'subscription_payment_superseded', threeDsToken: null });
  });

  it('the page takes no card for a paid period or a cancelled subscription', async () => {
    const m = await merchantWithPlans();
    const { token } = await activeSubscription(m);
    const paid = await findCheckoutSubscription(t.gateway.services, token);
    await expect(paySubscription(t.gateway.services, paid!, { card: cardFields() })).rejects.toThrowError(StateError);
    await expect(paySubscription(t.gateway.services, paid!, { card: cardFields() })).rejects.toMatchObject({ issues: [{ code: 'subscription_nothing_to_pay' }] });

    const { token: pendingToken } = await openSubscription(m, { items: [{ channel_reference: 'PLAN-M' }] });
    const stale = await findCheckoutSubscription(t.gateway.services, pendingToken);
    await m.call('cancel-subscription', { subscription: { token: pendingToken } });
    // Read before the cancel: the claim under the row lock still refuses it.
    await expect(paySubscription(t.gateway.services, stale!, { card: cardFields() })).rejects.toMatchObject({ issues: [{ code: 'subscription_already_cancelled' }] });
    expect(await t.gateway.services.db.payment.count({ where: { subscriptionId: pendingToken } })).toBe(0);
  });
});

describe('renewals with the test clock', () => {
  it('three monthly renewals from a 31 January anchor: 29 Feb (leap day), 31 Mar, 30 Apr, each charged once from the default card without 3D', async () => {
    const m = await merchantWithPlans();
    const { token, paymentId } = await activeSubscription(m);
    const card = (await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: paymentId } })).storedCardId;

    const moved = await advance(t, m, '3mo');

    expect(moved.clock.now.toISOString()).toBe('2024-04-30T07:15:00.000Z');
    expect(moved.steps.map((s) => [s.at.toISOString(), s.kind, s.token, s.outcome])).toEqual([
      ['2024-02-29T07:15:00.000Z', 'period_end', token, 'renewed'],
      ['2024-03-31T07:15:00.000Z', 'period_end', token, 'renewed'],
      ['2024-04-30T07:15:00.000Z', 'period_end', token, 'renewed'],
    ]);
    const row = await subscriptionRow(t, token);
    expect(row.periods.map((p) => [p.number, p.status, p.amount, p.startsAt?.toISOString(), p.endsAt?.toISOString(), p.paidAt?.toISOString(), p.payments.length])).toEqual([
      [1, 'paid', 10000n, START, '2024-02-29T07:15:00.000Z', START, 1],
      [2, 'paid', 10000n, '2024-02-29T07:15:00.000Z', '2024-03-31T07:15:00.000Z', '2024-02-29T07:15:00.000Z', 1],
      [3, 'paid', 10000n, '2024-03-31T07:15:00.000Z', '2024-04-30T07:15:00.000Z', '2024-03-31T07:15:00.000Z', 1],
      [4, 'paid', 10000n, '2024-04-30T07:15:00.000Z', '2024-05-31T07:15:00.000Z', '2024-04-30T07:15:00.000Z', 1],
    ]);
    for (const p of row.periods.slice(1)) {
      expect(p.payments[0]).toMatchObject({ source: 'subscription', securityType: 'non_secure', status: 'successful', paidWithCardId: card, amount: 10000n, channelReference: 'SUB-1001' });
    }
    expect(await retrieve(m, token)).toMatchObject({
      status: 'active',
      starts_at: micro('2024-04-30T07:15:00.000Z'),
      ends_at: micro('2024-05-31T07:15:00.000Z'),
      paid_at: micro('2024-04-30T07:15:00.000Z'),
      checkout_url: null,
    });
    // Events carry the workspace's time: when each renewal happened on its clock.
    expect(await outbox(token)).toEqual([
      { kind: 'subscription.active', at: START, transaction: paymentId },
      { kind: 'subscription.active', at: '2024-02-29T07:15:00.000Z', transaction: row.periods[1]!.payments[0]!.id },
      { kind: 'subscription.active', at: '2024-03-31T07:15:00.000Z', transaction: row.periods[2]!.payments[0]!.id },
      { kind: 'subscription.active', at: '2024-04-30T07:15:00.000Z', transaction: row.periods[3]!.payments[0]!.id },
    ]);

    // Moving on without reaching the next end runs nothing.
    expect((await advance(t, m, '30d')).steps).toEqual([]);
  });

  it('a yearly subscription paid on 29 February renews on 28 February', async () => {
    const m = await merchantWithPlans({ 'PLAN-M': '1000.00' }, 'yearly');
    await advance(t, m, '29d');
    const { token } = await activeSubscription(m);
    expect(await retrieve(m, token)).toMatchObject({ starts_at: micro('2024-02-29T07:15:00.000Z'), ends_at: micro('2025-02-28T07:15:00.000Z') });

    const moved = await advance(t, m, '1y');
    expect(moved.steps.map((s) => [s.at.toISOString(), s.outcome])).toEqual([['2025-02-28T07:15:00.000Z', 'renewed']]);
    expect(await retrieve(m, token)).toMatchObject({ status: 'active', starts_at: micro('2025-02-28T07:15:00.000Z'), ends_at: micro('2026-02-28T07:15:00.000Z') });
  });

  it('a catalog price change applies from the next period: a period keeps the price it opened with', async () => {
    const m = await merchantWithPlans({ 'PLAN-M': '100.00', 'PLAN-ADD': '10.00' });
    const { token } = await openSubscription(m, { items: [{ channel_reference: 'PLAN-M', unit_amount: '50.00' }, { channel_reference: 'PLAN-ADD', quantity: 2 }] });
    expect((await retrieve(m, token)).amount).toBe('70.00');
    await payPeriod(t, token);
    await saveProducts(m, [recurringProduct(m, 'PLAN-M', { amount: '150.00' })]);
    const before = await retrieve(m, token);
    // The period being paid keeps its amount; items show today's catalog price.
    expect(before).toMatchObject({ amount: '70.00', items: [{ channel_reference: 'PLAN-M', unit_amount: '150.00' }, { channel_reference: 'PLAN-ADD', quantity: 2, unit_amount: '10.00' }] });

    await advance(t, m, '1mo');
    expect((await retrieve(m, token)).amount).toBe('170.00');
    await saveProducts(m, [recurringProduct(m, 'PLAN-ADD', { amount: '12.50' })]);
    expect((await retrieve(m, token)).amount).toBe('170.00');

    // From 29 Feb, the next end is 31 Mar.
    await advance(t, m, '32d');
    const row = await subscriptionRow(t, token);
    expect(row.periods.map((p) => [p.amount, p.payments.map((x) => x.amount)])).toEqual([
      [7000n, [7000n]],
      [17000n, [17000n]],
      [17500n, [17500n]],
    ]);
  });
});

describe('a renewal that cannot be collected', () => {
  it('declined: past_due with a checkout_url for that period; paid there it is active again with its dates unchanged, and renews from the new card', async () => {
    const m = await merchantWithPlans();
    const { token } = await activeSubscription(m);
    // The customer's default card becomes one the bank declines.
    const declining = await m.call('save-card', { saved_card: { channel_token: m.channelToken }, customer: { channel_reference: 'CUST-1' }, card: { holder_name: 'A', number: CARDS.insufficientFunds, expiry_month: '12', expiry_year: '2030' } });
    await m.call('default-saved-card', { customer: { channel_token: m.channelToken, channel_reference: 'CUST-1' }, saved_card: { token: declining.body.saved_card.token } });

    const moved = await advance(t, m, '1mo');
    expect(moved.steps.map((s) => s.outcome)).toEqual(['past_due']);
    const pastDue = await retrieve(m, token);
    expect(pastDue).toMatchObject({
      status: 'past_due',
      amount: '100.00',
      starts_at: micro('2024-02-29T07:15:00.000Z'),
      ends_at: micro('2024-03-31T07:15:00.000Z'),
      paid_at: null,
      checkout_url: `${t.gateway.baseUrl}/checkout/subscription/${token}`,
    });
    const [declined] = (await subscriptionRow(t, token)).periods[1]!.payments;
    expect(declined).toMatchObject({ status: 'failed', securityType: 'non_secure', errorCode: 'insufficient_funds' });
    expect((await outbox(token)).map((e) => [e.kind, e.at])).toEqual([
      ['subscription.active', START],
      ['subscription.past_due', '2024-02-29T07:15:00.000Z'],
    ]);

    // Nothing renews while past due.
    expect((await advance(t, m, '5d')).steps).toEqual([]);
    const { started } = await payPeriod(t, token);
    expect(await retrieve(m, token)).toMatchObject({
      status: 'active',
      starts_at: micro('2024-02-29T07:15:00.000Z'),
      ends_at: micro('2024-03-31T07:15:00.000Z'),
      paid_at: micro('2024-03-05T07:15:00.000Z'),
      checkout_url: null,
    });
    expect((await outbox(token)).at(-1)).toEqual({ kind: 'subscription.active', at: '2024-03-05T07:15:00.000Z', transaction: started.paymentId });
    // The card given on the page is the default now; the next renewal charges it.
    const newCard = (await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).storedCardId;
    const renewed = await advance(t, m, '1mo');
    expect(renewed.steps.map((s) => [s.at.toISOString(), s.outcome])).toEqual([['2024-03-31T07:15:00.000Z', 'renewed']]);
    expect((await subscriptionRow(t, token)).periods[2]!.payments[0]).toMatchObject({ status: 'successful', paidWithCardId: newCard });
  });

  it('card deleted: past_due without a charge', async () => {
    const m = await merchantWithPlans();
    const { token, paymentId } = await activeSubscription(m);
    const card = (await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: paymentId } })).storedCardId;
    await m.call('delete-saved-card', { customer: { channel_token: m.channelToken, channel_reference: 'CUST-1' }, saved_card: { token: card } });

    expect((await advance(t, m, '1mo')).steps.map((s) => s.outcome)).toEqual(['past_due']);
    const row = await subscriptionRow(t, token);
    expect(row.status).toBe('past_due');
    expect(row.periods.map((p) => [p.number, p.status, p.payments.length])).toEqual([
      [1, 'paid', 1],
      [2, 'failed', 0],
    ]);
  });

  it('the card\'s account deleted: past_due without a charge', async () => {
    const m = await merchantWithPlans();
    const { token } = await activeSubscription(m);
    await t.gateway.services.db.paymentAccount.update({ where: { id: m.accountToken }, data: { deletedAt: new Date() } });

    expect((await advance(t, m, '1mo')).steps.map((s) => s.outcome)).toEqual(['past_due']);
    expect((await retrieve(m, token)).status).toBe('past_due');
  });

  it('cancelling a past_due subscription ends it at once', async () => {
    const m = await merchantWithPlans();
    const { token, paymentId } = await activeSubscription(m);
    const card = (await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: paymentId } })).storedCardId;
    await m.call('delete-saved-card', { customer: { channel_token: m.channelToken, channel_reference: 'CUST-1' }, saved_card: { token: card } });
    await advance(t, m, '1mo');

    const res = await m.call('cancel-subscription', { subscription: { token } });
    expect(res.body.subscription).toMatchObject({ status: 'cancelled', cancelled_at: micro('2024-02-29T07:15:00.000Z'), checkout_url: null });
    expect((await outbox(token)).map((e) => [e.kind, e.at])).toEqual([
      ['subscription.active', START],
      ['subscription.cancelled', '2024-02-29T07:15:00.000Z'],
      ['subscription.ended', '2024-02-29T07:15:00.000Z'],
      ['subscription.past_due', '2024-02-29T07:15:00.000Z'],
    ]);
  });
});

describe('cancelling and completing', () => {
  it('with a paid period: active with cancelled_at until ends_at, then cancelled and subscription.ended; no further charge', async () => {
    const m = await merchantWithPlans();
    const { token } = await activeSubscription(m);
    await advance(t, m, '10d');
    const res = await m.call('cancel-subscription', { subscription: { token } });

    expect(res.status).toBe(200);
    expect(res.body.subscription).toMatchObject({ status: 'active', cancelled_at: micro('2024-02-10T07:15:00.000Z'), ends_at: micro('2024-02-29T07:15:00.000Z'), checkout_url: null });
    expect((await m.call('cancel-subscription', { subscription: { token } })).status).toBe(422);

    const moved = await advance(t, m, '1mo');
    expect(moved.steps.map((s) => [s.at.toISOString(), s.outcome])).toEqual([['2024-02-29T07:15:00.000Z', 'ended']]);
    expect(await retrieve(m, token)).toMatchObject({ status: 'cancelled', cancelled_at: micro('2024-02-10T07:15:00.000Z'), checkout_url: null });
    const row = await subscriptionRow(t, token);
    expect(row.periods).toHaveLength(1);
    expect(row.endedAt?.toISOString()).toBe('2024-02-29T07:15:00.000Z');
    expect((await outbox(token)).map((e) => [e.kind, e.at])).toEqual([
      ['subscription.active', START],
      ['subscription.cancelled', '2024-02-10T07:15:00.000Z'],
      ['subscription.ended', '2024-02-29T07:15:00.000Z'],
    ]);
    expect((await m.call('cancel-subscription', { subscription: { token } })).body.errors).toEqual({ 'subscription.token': [msg('subscription_already_cancelled')] });
  });

  it('renewal_limit 2: two paid periods, then completed when the second ends, with subscription.completed', async () => {
    const m = await merchantWithPlans();
    const { token } = await activeSubscription(m, { subscription: { renewal_limit: 2 } });

    const moved = await advance(t, m, '3mo');
    expect(moved.steps.map((s) => [s.at.toISOString(), s.outcome])).toEqual([
      ['2024-02-29T07:15:00.000Z', 'renewed'],
      ['2024-03-31T07:15:00.000Z', 'completed'],
    ]);
    expect(await retrieve(m, token)).toMatchObject({ status: 'completed', ends_at: micro('2024-03-31T07:15:00.000Z'), checkout_url: null });
    expect((await subscriptionRow(t, token)).periods).toHaveLength(2);
    expect((await outbox(token)).map((e) => e.kind)).toEqual(['subscription.active', 'subscription.active', 'subscription.completed']);
    expect((await m.call('cancel-subscription', { subscription: { token } })).body.errors).toEqual({ 'subscription.token': [msg('subscription_already_ended')] });
  });

  it('renewal_limit 1: completed when the first period ends, never charged again', async () => {
    const m = await merchantWithPlans();
    const { token } = await activeSubscription(m, { subscription: { renewal_limit: 1 } });
    expect((await advance(t, m, '2mo')).steps.map((s) => s.outcome)).toEqual(['completed']);
    expect(await t.gateway.services.db.payment.count({ where: { subscriptionId: token } })).toBe(1);
  });
});

describe('refunds and cancels of subscription payments', () => {
  it('send subscription.payment_refunded / subscription.payment_cancelled with the transaction, never transaction.*', async () => {
    const m = await merchantWithPlans();
    const { token, paymentId } = await activeSubscription(m);
    await advance(t, m, '1mo');
    const renewal = (await subscriptionRow(t, token)).periods[1]!.payments[0]!.id;

    expect((await m.call('refund-payment', { transaction: { token: paymentId }, amount: '10.00' })).body.result.successful).toBe(true);
    expect((await m.call('cancel-payment', { transaction: { token: renewal } })).body.result.successful).toBe(true);

    const money = (await outbox(token)).filter((e) => e.kind.startsWith('subscription.payment_'));
    expect(money).toEqual([
      { kind: 'subscription.payment_cancelled', at: '2024-02-29T07:15:00.000Z', transaction: renewal },
      { kind: 'subscription.payment_refunded', at: '2024-02-29T07:15:00.000Z', transaction: paymentId },
    ]);
    expect(await eventsOf(t, paymentId)).toEqual([]);
    expect(await eventsOf(t, renewal)).toEqual([]);
    // Money returned changes no state: the subscription keeps running.
    expect((await retrieve(m, token)).status).toBe('active');
  });
});

describe('the test clock', () => {
  it('expires a 3D page left unopened once 15 minutes pass on the clock; the period stays payable', async () => {
    const m = await merchantWithPlans();
    const { token } = await openSubscription(m, { items: [{ channel_reference: 'PLAN-M' }] });
    const sub = await findCheckoutSubscription(t.gateway.services, token);
    const started = await paySubscription(t.gateway.services, sub!, { card: cardFields() });

    expect((await advance(t, m, '10m')).steps).toEqual([]);
    const moved = await advance(t, m, '10m');
    expect(moved.steps.map((s) => [s.at.toISOString(), s.kind, s.token, s.outcome])).toEqual([['2024-01-31T07:30:00.000Z', 'payment_expiry', started.paymentId, 'expired']]);
    expect((await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).status).toBe('expired');
    expect((await retrieve(m, token)).status).toBe('pending');
  });

  it('moves only its own workspace', async () => {
    const a = await merchantWithPlans();
    const b = await merchantWithPlans();
    const { token: ta } = await activeSubscription(a);
    const { token: tb } = await activeSubscription(b);
    await advance(t, a, '1mo');
    expect((await subscriptionRow(t, ta)).periods).toHaveLength(2);
    expect((await subscriptionRow(t, tb)).periods).toHaveLength(1);
    const other = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: b.workspaceId } });
    expect(other.testClockOffsetMs).toBe(0n);
  });

  it('refuses a live-mode workspace and a bad duration', async () => {
    const m = await merchantWithPlans();
    await expect(advance(t, m, '0d')).rejects.toMatchObject({ issues: [{ path: ['duration'], code: 'test_clock_duration' }] });
    await expect(advance(t, m, '11y')).rejects.toMatchObject({ issues: [{ path: ['duration'], code: 'test_clock_duration' }] });
    await t.gateway.services.db.workspace.update({ where: { id: m.workspaceId }, data: { mode: 'live' } });
    await t.gateway.admission.synced();
    await expect(advance(t, m, '1d')).rejects.toMatchObject({ issues: [{ code: 'test_clock_live_mode' }] });
  });
});
