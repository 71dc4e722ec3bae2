// Reconciliation of payments whose provider never answered (the timeout card 4000000000009995):
// they stay `unresolved` without an event, the reconcile-payment job asks the provider 1 min,
// 5 min, 15 min, 1 h and 6 h later, and settles them with the owner's normal event once the
// provider knows, or fails them after the last try. The simulator can only tell from a reference
// it handed out: a 3D payment's completion is finally approved, a lost charge stays unknown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { CARDS, completeThreeDs, paymentBody } from '../helpers/payments.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { eventsOf } from '../helpers/rows.ts';
import { payOnCheckout } from '../helpers/checkout.ts';
import { orderBody } from '../helpers/orders.ts';
import { reconcilePayment } from '../../src/domain/payments/reconcile.ts';

const MINUTE = 60 * 1000;
const TIMEOUT_MESSAGE = 'Banka yanıt vermedi; ödemenin sonucu belirsiz.';
const UNCONFIRMED_MESSAGE = 'Banka ödemenin sonucunu bildirmedi; ödeme başarısız sayıldı.';

let t: TestGateway;
let m: Merchant;
let reference = 7000;

beforeAll(async () => {
  t = await startTestGateway();
  m = await seedWorkspace(t);
});
afterAll(() => t?.stop());

const retrieve = async (token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result;
const statusOf = async (token: string) => (await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } })).status;

async function timedOutCharge(): Promise<string> {
  const body = paymentBody(m, { transaction: { channel_reference: `REC-${reference++}` }, card: { number: CARDS.timeout } });
  delete (body.transaction as Record<string, unknown>).callback_url;
  const res = await m.call('regular-payment', body);
  expect(res.body.result).toEqual({ successful: false, message: TIMEOUT_MESSAGE, error_code: 'provider_timeout' });
  return res.body.transaction.token;
}

async function timedOutCompletion(): Promise<string> {
  const started = await m.call('secure-payment', paymentBody(m, { transaction: { channel_reference: `REC-${reference++}` }, card: { number: CARDS.timeout } }));
  const threeDs = await completeThreeDs(started.body.result.redirect_url, 'approve');
  expect(threeDs.returnStatus).toBe(200);
  return started.body.transaction.token;
}

describe('a 3D payment whose completion the bank never answered', () => {
  it('is settled by the first try that finds it approved, with transaction.successful', async () => {
    // Given a 3D payment left unresolved, without an event
    const token = await timedOutCompletion();
    expect(await statusOf(token)).toBe('unresolved');
    expect(await retrieve(token)).toEqual({ successful: false, message: TIMEOUT_MESSAGE, error_code: 'provider_timeout' });
    expect(await eventsOf(t, token)).toEqual([]);

    // When the first try is due
    t.clock.advance(MINUTE + 1000);
    await runJobsDueBy(t);

    // Then the provider's answer settles it with its event
    expect(await retrieve(token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });

  it('is not asked about before its first try: an early run only reschedules it', async () => {
    const token = await timedOutCompletion();
    const unresolvedAt = t.clock.now().getTime();

    t.clock.advance(MINUTE - 1000);
    const next = await reconcilePayment(t.gateway.services, token);

    expect(next).toEqual(new Date(unresolvedAt + MINUTE));
    expect(await statusOf(token)).toBe('unresolved');
    expect(await eventsOf(t, token)).toEqual([]);
  });

  it('of an order pays the order with order.paid, as a completed page would', async () => {
    const order = await m.call('order-payment', orderBody(m, { order: { channel_reference: `REC-${reference++}` } }));
    const orderToken: string = order.body.order.token;
    await payOnCheckout(order.body.order.checkout_url, { number: CARDS.timeout }, 'approve');
    const [payment] = await t.gateway.services.db.payment.findMany({ where: { orderId: orderToken } });
    expect(payment!.status).toBe('unresolved');
    expect(await eventsOf(t, orderToken)).toEqual([]);

    t.clock.advance(MINUTE + 1000);
    await runJobsDueBy(t);

    expect(await statusOf(payment!.id)).toBe('successful');
    expect((await t.gateway.services.db.order.findUniqueOrThrow({ where: { id: orderToken } })).status).toBe('paid');
    expect(await eventsOf(t, orderToken)).toEqual(['order.paid']);
  });
});

describe('a regular payment whose charge the bank never answered', () => {
  it('stays unresolved without an event while the provider does not know, then fails after the 6-hour try with transaction.failed', async () => {
    const token = await timedOutCharge();
    expect(await eventsOf(t, token)).toEqual([]);

    // The tries at 1, 5, 15 and 60 minutes find nothing
    for (const minutes of [1, 4, 10, 45]) {
      t.clock.advance(minutes * MINUTE);
      await runJobsDueBy(t);
      expect(await statusOf(token)).toBe('unresolved');
    }
    expect(await eventsOf(t, token)).toEqual([]);

    // The last one gives up
    t.clock.advance(300 * MINUTE);
    await runJobsDueBy(t);
    expect(await retrieve(token)).toEqual({ successful: false, message: UNCONFIRMED_MESSAGE, error_code: 'payment_unconfirmed' });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);

    // and nothing is left to run for it
    t.clock.advance(24 * 60 * MINUTE);
    await runJobsDueBy(t);
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
  });

  it('fails once when the clock jumps past every try at once', async () => {
    const token = await timedOutCharge();

    t.clock.advance(7 * 60 * MINUTE);
    await runJobsDueBy(t);

    expect(await retrieve(token)).toEqual({ successful: false, message: UNCONFIRMED_MESSAGE, error_code: 'payment_unconfirmed' });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
  });
});
