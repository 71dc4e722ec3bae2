// refund-payment and cancel-payment of payments taken through iyzico (the emulator): each refund
// reaches iyzico's payment/refund for the payment's one item transaction, a cancel its
// payment/cancel; the payment_status follows as for the simulator, and what iyzico refuses (or
// what is more than is left) changes nothing.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { expectFieldError, msg } from '../helpers/messages.ts';
import { paymentBody, postCallback } from '../helpers/payments.ts';
import { eventsOf, rowCounts } from '../helpers/rows.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { answerIyzicoAcs, emulatorState, IYZICO_CARDS, seedIyzicoMerchant, useIyzicoEmulator } from '../helpers/iyzico.ts';

const { t, receiver: shop } = useGateway({ receiver: true });
const iyzico = useIyzicoEmulator();
let m: Merchant;
let reference = 5000;

/** A successful regular payment through iyzico; its iyzico payment and item transaction ids. */
async function pay(amount = '100.00', number: string = IYZICO_CARDS.approved) {
  m ??= await seedIyzicoMerchant(t, iyzico.emulator);
  const res = await m.call('regular-payment', paymentBody(m, { card: { number }, transaction: { channel_reference: `IYZR-${reference++}`, amount } }));
  expect(res.body.result, res.text).toEqual({ successful: true, message: null });
  const token = res.body.transaction.token as string;
  return { token, ...(await iyzicoIds(token)) };
}

/** iyzico's paymentId (the payment's reference) and its one basket item's transaction, from the emulator. */
async function iyzicoIds(token: string) {
  const paymentId = (await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } })).providerReference!;
  const held = (await emulatorState(iyzico.emulator)).payments.find((p) => p.paymentId === paymentId)!;
  return { paymentId, transactionId: held.items[0]!.paymentTransactionId };
}

const tick = () => t.clock.advance(1000);
const refund = (token: string, amount?: string) => (tick(), m.call('refund-payment', amount === undefined ? { transaction: { token } } : { transaction: { token }, amount }));
const cancel = (token: string) => (tick(), m.call('cancel-payment', { transaction: { token } }));
const paymentStatus = async (token: string) => (await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } })).paymentStatus;
/** What iyzico refunded (refunds its bank refused are recorded apart, with their failure). */
const refundsAt = async (paymentId: string) => (await emulatorState(iyzico.emulator)).refunds.filter((r) => r.paymentId === paymentId && r.outcome.status === 'SUCCESS').map((r) => r.price);
const cancelsAt = async (paymentId: string) => (await emulatorState(iyzico.emulator)).cancels.filter((c) => c.paymentId === paymentId && c.outcome.status === 'SUCCESS');

describe('refund-payment through iyzico', () => {
  it('a partial refund, then the rest: both at iyzico on the item transaction; partially_refunded then refunded', async () => {
    const paid = await pay('100.00');

    const first = await refund(paid.token, '30.00');
    expect(first.status, first.text).toBe(200);
    expect(first.body.result).toEqual({ successful: true, message: null });
    expect(first.body.refund).toEqual({ type: 'refund', amount: '30.00' });
    expect(await paymentStatus(paid.token)).toBe('partially_refunded');
    expect(await refundsAt(paid.paymentId)).toEqual([3_000]);

    const rest = await refund(paid.token);
    expect(rest.body.refund).toEqual({ type: 'refund', amount: '70.00' });
    expect(await paymentStatus(paid.token)).toBe('refunded');

    const state = await emulatorState(iyzico.emulator);
    expect(state.refunds.filter((r) => r.paymentId === paid.paymentId && r.outcome.status === 'SUCCESS')).toEqual([
      expect.objectContaining({ paymentTransactionId: paid.transactionId, price: 3_000 }),
      expect.objectContaining({ paymentTransactionId: paid.transactionId, price: 7_000 }),
    ]);
    expect(state.payments.find((p) => p.paymentId === paid.paymentId)!.items[0]!.refunded).toBe(10_000);
    expect(await eventsOf(t, paid.token)).toEqual(['transaction.successful', 'transaction.payment_refunded', 'transaction.payment_refunded']);
  });

  it('refuses more than is left with 422 at amount: nothing written, nothing sent to iyzico', async () => {
    const paid = await pay('100.00');
    expect((await refund(paid.token, '60.00')).status).toBe(200);
    const before = { rows: await rowCounts(t), payment: await t.gateway.services.db.payment.findUnique({ where: { id: paid.token } }) };

    const over = await refund(paid.token, '40.01');

    expectFieldError(over, 'amount', 'refund_exceeds');
    expect(await rowCounts(t)).toEqual(before.rows);
    expect(await t.gateway.services.db.payment.findUnique({ where: { id: paid.token } })).toEqual(before.payment);
    expect(await refundsAt(paid.paymentId)).toEqual([6_000]);
  });

  it('a refund iyzico\u2019s bank refuses: successful false with refund_rejected, the payment still paid', async () => {
    const paid = await pay('80.00', '5406670000000009');

    const res = await refund(paid.token, '10.00');

    expect(res.body.result).toEqual({ successful: false, message: msg('decline_refund_rejected'), error_code: 'refund_rejected' });
    expect(await paymentStatus(paid.token)).toBe('paid');
    expect(await refundsAt(paid.paymentId)).toEqual([]);
  });

  it('refunds a payment completed through iyzico\u2019s 3D Secure', async () => {
    m ??= await seedIyzicoMerchant(t, iyzico.emulator);
    const started = await m.call('secure-payment', paymentBody(m, { card: { number: IYZICO_CARDS.approved }, transaction: { channel_reference: `IYZR-${reference++}`, callback_url: `${shop.url}/back` } }));
    const token = started.body.transaction.token as string;
    const page = await (await fetch(started.body.result.redirect_url)).text();
    const answer = await answerIyzicoAcs(page, 'approve');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    const ids = await iyzicoIds(token);

    const res = await refund(token, '25.00');

    expect(res.body.result).toEqual({ successful: true, message: null });
    expect(await paymentStatus(token)).toBe('partially_refunded');
    expect((await emulatorState(iyzico.emulator)).refunds.filter((r) => r.paymentId === ids.paymentId)).toEqual([expect.objectContaining({ paymentTransactionId: ids.transactionId, price: 2_500, outcome: { status: 'SUCCESS' } })]);
  });
});

describe('cancel-payment through iyzico', () => {
  it('cancels another payment whole: iyzico voids it, payment_status cancelled, the first payment untouched', async () => {
    const refunded = await pay('100.00');
    expect((await refund(refunded.token, '10.00')).status).toBe(200);
    const other = await pay('250.75');

    const res = await cancel(other.token);

    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toEqual({ successful: true, message: null });
    expect(res.body.refund).toEqual({ type: 'cancel', amount: '250.75' });
    expect(await paymentStatus(other.token)).toBe('cancelled');
    expect(await cancelsAt(other.paymentId)).toHaveLength(1);
    expect((await emulatorState(iyzico.emulator)).payments.find((p) => p.paymentId === other.paymentId)!.cancelled).toBe(true);
    expect(await eventsOf(t, other.token)).toEqual(['transaction.successful', 'transaction.payment_cancelled']);
    expect(await paymentStatus(refunded.token)).toBe('partially_refunded');
    expect(await cancelsAt(refunded.paymentId)).toEqual([]);
  });

  it('a cancel iyzico refuses: successful false with refund_rejected, the payment still paid', async () => {
    const paid = await pay('80.00', '5406670000000009');

    const res = await cancel(paid.token);

    expect(res.body.result).toEqual({ successful: false, message: msg('decline_refund_rejected'), error_code: 'refund_rejected' });
    expect(await paymentStatus(paid.token)).toBe('paid');
    expect(await cancelsAt(paid.paymentId)).toEqual([]);
  });
});
