// Parallel money movements on one payment (refunds and cancels lock the payment row): the row lock must keep the
// refunded total within the payment and let only one of a cancel and a refund through.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';

const { t, merchant: m } = useGateway({ merchant: true });
let reference = 9000;

async function pay(amount = '100.00'): Promise<string> {
  const res = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: `PAR-${reference++}`, amount } }));
  expect(res.body.result.successful).toBe(true);
  return res.body.transaction.token;
}

const refund = (token: string, amount?: string) => m.call('refund-payment', amount ? { transaction: { token }, amount } : { transaction: { token } });
const cancel = (token: string) => m.call('cancel-payment', { transaction: { token } });
const succeeded = (r: { status: number; body: { result: { successful: boolean } } }) => r.status === 200 && r.body.result.successful;

async function settledRefunds(token: string) {
  const db = t.gateway.services.db;
  const [payment, refunds] = await Promise.all([db.payment.findUniqueOrThrow({ where: { id: token } }), db.refund.findMany({ where: { paymentId: token } })]);
  return { payment, refunds, total: refunds.filter((r) => r.status === 'succeeded').reduce((sum, r) => sum + r.amount, 0n) };
}

describe('parallel partial refunds', () => {
  it('20 refunds of 10.00 on 100.00 refund exactly 100.00', async () => {
    // Given a payment of 100.00
    const token = await pay('100.00');

    // When 20 refunds of 10.00 (200.00 in all) arrive at once
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(token, '10.00')));

    // Then exactly ten went through and the rest were refused without a provider call
    expect(answers.filter(succeeded)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(10);
    const { payment, refunds, total } = await settledRefunds(token);
    expect(total).toBe(10000n);
    expect(refunds).toHaveLength(10);
    expect(payment.refundedAmount).toBe(10000n);
    expect(payment.paymentStatus).toBe('refunded');
    expect((await eventsOf(t, token)).filter((k) => k === 'transaction.payment_refunded')).toHaveLength(10);
  });

  it('20 refunds of 7.00 on 100.00 never exceed the amount and leave the remainder refundable', async () => {
    const token = await pay('100.00');

    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(token, '7.00')));

    expect(answers.filter(succeeded)).toHaveLength(14);
    const after = await settledRefunds(token);
    expect(after.total).toBe(9800n);
    expect(after.payment.paymentStatus).toBe('partially_refunded');
    const rest = await refund(token);
    expect(rest.body.refund).toEqual({ type: 'refund', amount: '2.00' });
    expect((await settledRefunds(token)).total).toBe(10000n);
  });

  it('parallel refunds of the whole remainder refund it once', async () => {
    const token = await pay('55.55');

    const answers = await Promise.all(Array.from({ length: 8 }, () => refund(token)));

    expect(answers.filter(succeeded)).toHaveLength(1);
    expect((await settledRefunds(token)).total).toBe(5555n);
  });
});

describe('a parallel cancel and refund', () => {
  it('exactly one succeeds, every time', async () => {
    for (let round = 0; round < 6; round++) {
      // Given a paid payment
      const token = await pay('100.00');

      // When a cancel and a partial refund arrive together (in alternating order)
      const [c, r] = round % 2 === 0 ? await Promise.all([cancel(token), refund(token, '25.00')]) : (await Promise.all([refund(token, '25.00'), cancel(token)])).reverse();

      // Then exactly one of them went through, and the payment shows that one
      expect([succeeded(c), succeeded(r)].filter(Boolean)).toHaveLength(1);
      expect([c.status, r.status].sort()).toEqual([200, 422]);
      const { payment, refunds } = await settledRefunds(token);
      expect(refunds).toHaveLength(1);
      if (succeeded(c)) {
        expect(payment.paymentStatus).toBe('cancelled');
        expect(refunds[0]!.type).toBe('cancel');
      } else {
        expect(payment.paymentStatus).toBe('partially_refunded');
        expect(refunds[0]!.type).toBe('refund');
      }
      expect(await eventsOf(t, token)).toHaveLength(2);
    }
  });

  it('parallel cancels cancel once', async () => {
    const token = await pay('100.00');

    const answers = await Promise.all(Array.from({ length: 5 }, () => cancel(token)));

    expect(answers.filter(succeeded)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(4);
    expect((await settledRefunds(token)).refunds).toHaveLength(1);
    expect((await eventsOf(t, token)).filter((k) => k === 'transaction.payment_cancelled')).toHaveLength(1);
  });
});
