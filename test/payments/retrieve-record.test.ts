// retrieve-payment answers the record a merchant decides from, when asked for it (`X-Include:
// payment`; without it the answer is the contract's, which shows no refund or cancel): after the
// contract's fields, which keep their keys, order and bytes, a `payment` object with the status, the money status, the
// amounts and every refund or cancel, as a webhook's receiver needs after "fetch the payment".
// The payment operations' own answers (and their idempotent replays) do not carry it.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';

const { t, merchant: m } = useGateway({ merchant: true });
let reference = 7000;

async function pay(number: string = CARDS.approved, headers?: Record<string, string>) {
  const res = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: `REC-${reference++}`, amount: '100.00' }, card: { number } }), headers ? { headers } : undefined);
  expect(res.status).toBe(200);
  return res;
}
const retrieve = (token: string) => m.call('retrieve-payment', { transaction: { token } }, { headers: { 'X-Include': 'payment' } });

describe('retrieve-payment', () => {
  it("adds the payment's state after the contract's fields, which stay as they were", async () => {
    const paid = await pay();
    const token = paid.body.transaction.token as string;
    expect(Object.keys(paid.body)).toEqual(['result', 'transaction', 'customer', 'conversion']);
    // Not asked for: the contract's answer alone.
    const plain = await m.call('retrieve-payment', { transaction: { token } });
    expect(Object.keys(plain.body)).toEqual(['result', 'transaction', 'customer', 'conversion']);

    const res = await retrieve(token);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['result', 'transaction', 'customer', 'conversion', 'payment']);
    const { payment, ...contract } = res.body as Record<string, unknown>;
    expect(contract).toEqual({ result: { successful: true, message: null }, transaction: paid.body.transaction, customer: paid.body.customer, conversion: null });
    // The contract's bytes first, the extra field appended.
    expect(res.text.startsWith(JSON.stringify(contract).slice(0, -1) + ',"payment":')).toBe(true);
    expect(payment).toEqual({ status: 'successful', payment_status: 'paid', amount: '100.00', currency: 'TRY', refunded_amount: '0.00', refundable_amount: '100.00', refunds: [] });
  });

  it('shows refunds, the money status and what is left; a refunded payment stays successful', async () => {
    const token = (await pay()).body.transaction.token as string;
    t.clock.advance(1000);
    expect((await m.call('refund-payment', { transaction: { token }, amount: '40.00' })).status).toBe(200);
    t.clock.advance(1000);
    expect((await m.call('refund-payment', { transaction: { token }, amount: '10.50' })).status).toBe(200);
    const res = await retrieve(token);
    expect(res.body.result).toEqual({ successful: true, message: null });
    expect(res.body.payment).toEqual({
      status: 'successful',
      payment_status: 'partially_refunded',
      amount: '100.00',
      currency: 'TRY',
      refunded_amount: '50.50',
      refundable_amount: '49.50',
      refunds: [
        { type: 'refund', status: 'succeeded', amount: '40.00', created_at: expect.any(String) },
        { type: 'refund', status: 'succeeded', amount: '10.50', created_at: expect.any(String) },
      ],
    });
    const [first, second] = res.body.payment.refunds as Array<{ created_at: string }>;
    expect(Date.parse(first!.created_at)).toBeLessThan(Date.parse(second!.created_at));
  });

  it('a cancelled payment and a declined one', async () => {
    const cancelled = (await pay()).body.transaction.token as string;
    expect((await m.call('cancel-payment', { transaction: { token: cancelled } })).status).toBe(200);
    expect((await retrieve(cancelled)).body.payment).toMatchObject({ status: 'successful', payment_status: 'cancelled', refunded_amount: '100.00', refundable_amount: '0.00', refunds: [{ type: 'cancel', status: 'succeeded', amount: '100.00' }] });

    const declined = await pay(CARDS.insufficientFunds);
    const res = await retrieve(declined.body.transaction.token as string);
    expect(res.body.result.successful).toBe(false);
    expect(res.body.payment).toEqual({ status: 'failed', payment_status: null, amount: '100.00', currency: 'TRY', refunded_amount: '0.00', refundable_amount: '0.00', refunds: [] });
  });

  it("a payment operation's replay answers its own fields, without retrieve-payment's extra", async () => {
    const headers = { 'Idempotency-Key': `record-${reference}` };
    const first = await pay(CARDS.approved, headers);
    const replay = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: `REC-${reference - 1}`, amount: '100.00' }, card: { number: CARDS.approved } }), { headers });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(Object.keys(replay.body)).not.toContain('payment');
  });
});
