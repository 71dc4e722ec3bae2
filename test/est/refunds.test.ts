// refund-payment and cancel-payment of payments taken through an EST account (the emulator): each
// refund is an EST Credit on the payment's order, a cancel its Void; payment_status follows as for
// the simulator. More than is left is refused by the gateway (422, nothing sent); when the bank
// holds less than the gateway thinks (a refund made at the bank's own panel), the bank's refusal
// of the over-refund comes back as refund_rejected and changes nothing.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { expectFieldError, msg } from '../helpers/messages.ts';
import { paymentBody, postCallback } from '../helpers/payments.ts';
import { eventsOf, rowCounts } from '../helpers/rows.ts';
import { callApi } from '../emulators/est-client.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { answerEstAcs, EST_CARDS, estCalls, estOrderOf, seedEstMerchant, useEstEmulator } from '../helpers/est.ts';
import { orderOf } from '../helpers/bank-orders.ts';

const { t } = useGateway();
const est = useEstEmulator();
let m: Merchant;
let reference = 5000;

/** A successful regular payment through EST. */
async function pay(amount = '100.00') {
  m ??= await seedEstMerchant(t, est.emulator);
  const res = await m.call('regular-payment', paymentBody(m, { card: { number: EST_CARDS.approved }, transaction: { channel_reference: `ESTR-${reference++}`, amount } }));
  expect(res.body.result, res.text).toEqual({ successful: true, message: null });
  return res.body.transaction.token as string;
}

const tick = () => t.clock.advance(1000);
const refund = (token: string, amount?: string) => (tick(), m.call('refund-payment', amount === undefined ? { transaction: { token } } : { transaction: { token }, amount }));
const cancel = (token: string) => (tick(), m.call('cancel-payment', { transaction: { token } }));
const paymentStatus = async (token: string) => (await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } })).paymentStatus;
/** The bank's approved credits (refunds) on the payment's order, in minor units. */
const creditsAt = (token: string) => estOrderOf(est.emulator, token)!.transactions.filter((tx) => tx.chargeType === 'C' && tx.status === 'A').map((tx) => tx.amountMinor);
const saleAt = (token: string) => estOrderOf(est.emulator, token)!.transactions.find((tx) => tx.chargeType === 'S')!;

describe('refund-payment through EST', () => {
  it('a partial refund, then the rest: two Credits on the order; partially_refunded then refunded', async () => {
    const token = await pay('100.00');

    const first = await refund(token, '30.00');
    expect(first.status, first.text).toBe(200);
    expect(first.body.result).toEqual({ successful: true, message: null });
    expect(first.body.refund).toEqual({ type: 'refund', amount: '30.00' });
    expect(await paymentStatus(token)).toBe('partially_refunded');
    expect(creditsAt(token)).toEqual([3_000]);

    const rest = await refund(token);
    expect(rest.body.result).toEqual({ successful: true, message: null });
    expect(rest.body.refund).toEqual({ type: 'refund', amount: '70.00' });
    expect(await paymentStatus(token)).toBe('refunded');
    expect(creditsAt(token)).toEqual([3_000, 7_000]);
    expect(estCalls(t, 'refund').filter((c) => c.request.OrderId === orderOf(token)).map((c) => c.request.Total)).toEqual(['30.00', '70.00']);
    expect(await eventsOf(t, token)).toEqual(['transaction.successful', 'transaction.payment_refunded', 'transaction.payment_refunded']);
  });

  it('a full refund at once', async () => {
    const token = await pay('45.90');
    const res = await refund(token);
    expect(res.body.refund).toEqual({ type: 'refund', amount: '45.90' });
    expect(await paymentStatus(token)).toBe('refunded');
    expect(creditsAt(token)).toEqual([4_590]);
  });

  it('refuses more than is left with 422 at amount: nothing written, nothing sent to the bank', async () => {
    const token = await pay('100.00');
    expect((await refund(token, '60.00')).status).toBe(200);
    const before = { rows: await rowCounts(t), payment: await t.gateway.services.db.payment.findUnique({ where: { id: token } }), calls: estCalls(t, 'refund').length };

    const over = await refund(token, '40.01');

    expectFieldError(over, 'amount', 'refund_exceeds');
    expect(await rowCounts(t)).toEqual(before.rows);
    expect(await t.gateway.services.db.payment.findUnique({ where: { id: token } })).toEqual(before.payment);
    expect(estCalls(t, 'refund')).toHaveLength(before.calls);
    expect(creditsAt(token)).toEqual([6_000]);
  });

  it('the bank refuses an over-refund (30.00 already refunded at its own panel): refund_rejected, the payment still paid', async () => {
    const token = await pay('100.00');
    // A refund the gateway never saw: made straight on the bank's XML API.
    const outside = await callApi(est.emulator, { Type: 'Credit', OrderId: orderOf(token), Total: '30.00', Currency: '949' });
    expect(outside.answer).toMatchObject({ Response: 'Approved', ProcReturnCode: '00' });

    const res = await refund(token);

    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toEqual({ successful: false, message: msg('decline_refund_rejected'), error_code: 'refund_rejected' });
    const [asked] = estCalls(t, 'refund').filter((c) => c.request.OrderId === orderOf(token));
    expect(asked).toMatchObject({ request: { Total: '100.00' }, response: { fields: expect.objectContaining({ Response: 'Error', ProcReturnCode: '99' }), extra: expect.objectContaining({ ERRORCODE: 'CORE-2507' }) } });
    expect(await paymentStatus(token)).toBe('paid');
    expect(creditsAt(token)).toEqual([3_000]);
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });

  it('refunds a payment completed through 3-D Secure', async () => {
    m ??= await seedEstMerchant(t, est.emulator);
    const started = await m.call('secure-payment', paymentBody(m, { card: { number: EST_CARDS.approved }, transaction: { channel_reference: `ESTR-${reference++}` } }));
    const token = started.body.transaction.token as string;
    const answer = await answerEstAcs(started.body.result.redirect_url as string);
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);

    const res = await refund(token, '25.00');

    expect(res.body.result).toEqual({ successful: true, message: null });
    expect(await paymentStatus(token)).toBe('partially_refunded');
    expect(creditsAt(token)).toEqual([2_500]);
  });
});

describe('cancel-payment through EST', () => {
  it('cancels another payment whole: the bank voids its sale, payment_status cancelled, the first payment untouched', async () => {
    const refunded = await pay('100.00');
    expect((await refund(refunded, '10.00')).status).toBe(200);
    const other = await pay('250.75');

    const res = await cancel(other);

    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toEqual({ successful: true, message: null });
    expect(res.body.refund).toEqual({ type: 'cancel', amount: '250.75' });
    expect(await paymentStatus(other)).toBe('cancelled');
    expect(saleAt(other)).toMatchObject({ status: 'V', amountMinor: 25_075 });
    expect(await eventsOf(t, other)).toEqual(['transaction.successful', 'transaction.payment_cancelled']);
    expect(await paymentStatus(refunded)).toBe('partially_refunded');
    expect(saleAt(refunded).status).toBe('A');
    expect(creditsAt(refunded)).toEqual([1_000]);
  });
});
