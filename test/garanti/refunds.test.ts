// refund-payment and cancel-payment of payments taken through Garanti (the GVP emulator): refunds
// are GVP 'refund' transactions on the payment's order, a cancel its 'void', both sent as the
// terminal's refund user (PROVRFN: the emulator refuses any other user for them); the
// payment_status follows as for the simulator, and more than is left is refused before GVP.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { expectFieldError } from '../helpers/messages.ts';
import { paymentBody, postCallback } from '../helpers/payments.ts';
import { eventsOf, rowCounts } from '../helpers/rows.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { answerGarantiAcs, bankFormOf, GARANTI_CARDS, garantiCalls, garantiOrderOf, seedGarantiMerchant, useGarantiEmulator } from '../helpers/garanti.ts';
import { orderOf } from '../helpers/bank-orders.ts';

const { t, receiver: shop } = useGateway({ receiver: true });
const garanti = useGarantiEmulator();
let m: Merchant;
let reference = 5000;

async function pay(amount = '100.00') {
  m ??= await seedGarantiMerchant(t, garanti.emulator);
  const res = await m.call('regular-payment', paymentBody(m, { card: { number: GARANTI_CARDS.approved }, transaction: { channel_reference: `GVPR-${reference++}`, amount } }));
  expect(res.body.result, res.text).toEqual({ successful: true, message: null });
  return res.body.transaction.token as string;
}

const tick = () => t.clock.advance(1000);
const refund = (token: string, amount?: string) => (tick(), m.call('refund-payment', amount === undefined ? { transaction: { token } } : { transaction: { token }, amount }));
const cancel = (token: string) => (tick(), m.call('cancel-payment', { transaction: { token } }));
const paymentStatus = async (token: string) => (await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } })).paymentStatus;
const txnsAt = async (token: string) => (await garantiOrderOf(t, garanti.emulator, token))!.txns.map((x) => ({ type: x.type, code: x.code, amount: x.amount, voided: x.voided }));

describe('refund-payment through Garanti', () => {
  it('a partial refund, then the rest: both GVP refunds on the order, as PROVRFN; partially_refunded then refunded', async () => {
    const token = await pay('100.00');

    const first = await refund(token, '30.00');
    expect(first.status, first.text).toBe(200);
    expect(first.body.result).toEqual({ successful: true, message: null });
    expect(first.body.refund).toEqual({ type: 'refund', amount: '30.00' });
    expect(await paymentStatus(token)).toBe('partially_refunded');

    const rest = await refund(token);
    expect(rest.body.result).toEqual({ successful: true, message: null });
    expect(rest.body.refund).toEqual({ type: 'refund', amount: '70.00' });
    expect(await paymentStatus(token)).toBe('refunded');

    expect(await txnsAt(token)).toEqual([
      { type: 'sales', code: '00', amount: 10_000, voided: false },
      { type: 'refund', code: '00', amount: 3_000, voided: false },
      { type: 'refund', code: '00', amount: 7_000, voided: false },
    ]);
    expect((await garantiOrderOf(t, garanti.emulator, token))!.refunded).toBe(10_000);
    expect(await eventsOf(t, token)).toEqual(['transaction.successful', 'transaction.payment_refunded', 'transaction.payment_refunded']);
    // The emulator takes refunds only from the refund user; the gateway's log says which it used.
    const calls = garantiCalls(t, 'refund').filter((c) => JSON.stringify(c).includes(orderOf(token)));
    expect(calls).toHaveLength(2);
    expect(JSON.stringify(calls)).toContain(garanti.emulator.refundUser);
    expect(JSON.stringify(calls)).not.toContain(garanti.emulator.refundPassword);
  });

  it('refuses more than is left with 422 at amount: nothing written, nothing sent to GVP', async () => {
    const token = await pay('100.00');
    expect((await refund(token, '60.00')).status).toBe(200);
    const before = { rows: await rowCounts(t), payment: await t.gateway.services.db.payment.findUnique({ where: { id: token } }), txns: await txnsAt(token) };

    const over = await refund(token, '40.01');

    expectFieldError(over, 'amount', 'refund_exceeds');
    expect(await rowCounts(t)).toEqual(before.rows);
    expect(await t.gateway.services.db.payment.findUnique({ where: { id: token } })).toEqual(before.payment);
    expect(await txnsAt(token)).toEqual(before.txns);
  });

  it('refunds a payment completed through GVP\u2019s 3D (model 3d)', async () => {
    m ??= await seedGarantiMerchant(t, garanti.emulator);
    const started = await m.call('secure-payment', paymentBody(m, { card: { number: GARANTI_CARDS.approved }, transaction: { channel_reference: `GVPR-${reference++}`, callback_url: `${shop.url}/back` } }));
    const token = started.body.transaction.token as string;
    const answer = await answerGarantiAcs(await bankFormOf(started.body.result.redirect_url as string), 'approve');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);

    const res = await refund(token, '25.00');
    expect(res.body.result).toEqual({ successful: true, message: null });
    expect(await paymentStatus(token)).toBe('partially_refunded');
    expect(await txnsAt(token)).toEqual([
      { type: 'sales', code: '00', amount: 10_000, voided: false },
      { type: 'refund', code: '00', amount: 2_500, voided: false },
    ]);
  });
});

describe('cancel-payment through Garanti', () => {
  it('cancels another payment whole: GVP voids its sale (as PROVRFN), payment_status cancelled, the first payment untouched', async () => {
    const refunded = await pay('100.00');
    expect((await refund(refunded, '10.00')).status).toBe(200);
    const other = await pay('250.75');

    const res = await cancel(other);

    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toEqual({ successful: true, message: null });
    expect(res.body.refund).toEqual({ type: 'cancel', amount: '250.75' });
    expect(await paymentStatus(other)).toBe('cancelled');
    const order = (await garantiOrderOf(t, garanti.emulator, other))!;
    expect(order.txns).toEqual([expect.objectContaining({ type: 'sales', amount: 25_075, voided: true }), expect.objectContaining({ type: 'void', code: '00' })]);
    expect(order.charged).toBe(0);
    expect(JSON.stringify(garantiCalls(t, 'cancel').filter((c) => JSON.stringify(c).includes(orderOf(other))))).toContain(garanti.emulator.refundUser);
    expect(await eventsOf(t, other)).toEqual(['transaction.successful', 'transaction.payment_cancelled']);

    expect(await paymentStatus(refunded)).toBe('partially_refunded');
    expect(await txnsAt(refunded)).toEqual([
      { type: 'sales', code: '00', amount: 10_000, voided: false },
      { type: 'refund', code: '00', amount: 1_000, voided: false },
    ]);
  });
});

describe('cancel-payment of payments paid through GVP\u2019s 3D', () => {
  it.each(['3d', '3d_pay'] as const)('model %s: the void names the sale GVP made, payment_status cancelled', async (model) => {
    const owner = await seedGarantiMerchant(t, garanti.emulator, { model });
    const started = await owner.call('secure-payment', paymentBody(owner, { card: { number: GARANTI_CARDS.approved }, transaction: { channel_reference: `GVPR-${reference++}`, amount: '75.50', callback_url: `${shop.url}/back` } }));
    const token = started.body.transaction.token as string;
    const answer = await answerGarantiAcs(await bankFormOf(started.body.result.redirect_url as string), 'approve');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    const sale = (await garantiOrderOf(t, garanti.emulator, token))!.txns[0]!;
    expect((await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } })).providerReference).toBe(`${orderOf(token)}:${sale.retrefNum}`);

    tick();
    const res = await owner.call('cancel-payment', { transaction: { token } });
    expect(res.body.result, res.text).toEqual({ successful: true, message: null });
    expect(await paymentStatus(token)).toBe('cancelled');
    const order = (await garantiOrderOf(t, garanti.emulator, token))!;
    expect(order.txns).toEqual([expect.objectContaining({ type: 'sales', voided: true }), expect.objectContaining({ type: 'void', code: '00' })]);
  });
});
