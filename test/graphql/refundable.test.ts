// What is left to refund: the domain's rule (charged amount less refunds and cancels, in flight
// or settled; nothing unless the payment succeeded and was not cancelled) and Payment's
// refundableAmount / refundCurrency over /graphql, which the dashboard's refund box offers. The
// overview's decline reasons in the reader's words.
import { describe, expect, it } from 'vitest';
import { refundableAmount } from '../../src/domain/payments/refunds.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { gql } from '../helpers/webhooks.ts';

const { t, merchant: m } = useGateway({ merchant: true });

const QUERY = `query($token: String!) { payment(token: $token) { amount currency refundedAmount refundableAmount refundCurrency } }`;

const row = { status: 'successful', paymentStatus: 'paid', amount: 10000n, currency: 'TRY', chargedAmount: null, chargedCurrency: null, refundedAmount: 0n } as const;

describe('refundableAmount (domain)', () => {
  it('is the charged amount less what refunds and cancels took, never below zero', () => {
    expect(refundableAmount(row)).toBe(10000n);
    expect(refundableAmount({ ...row, paymentStatus: 'partially_refunded', refundedAmount: 3000n })).toBe(7000n);
    // A refund still with the bank is reserved in refundedAmount: not offered twice.
    expect(refundableAmount({ ...row, refundedAmount: 10000n })).toBe(0n);
    expect(refundableAmount({ ...row, refundedAmount: 12000n })).toBe(0n);
  });

  it('counts in the charged currency when the payment was converted', () => {
    expect(refundableAmount({ ...row, currency: 'USD', amount: 1000n, chargedAmount: 32000n, chargedCurrency: 'TRY', refundedAmount: 2000n })).toBe(30000n);
  });

  it('is nothing for a payment that did not succeed, or was cancelled', () => {
    for (const status of ['started', 'failed', 'expired', 'unresolved'] as const) expect(refundableAmount({ ...row, status, paymentStatus: null })).toBe(0n);
    expect(refundableAmount({ ...row, paymentStatus: 'cancelled' })).toBe(0n);
  });
});

describe('Payment.refundableAmount over /graphql', () => {
  it('follows refunds and cancels; a failed payment has nothing to refund', async () => {
    const token = await createAccessToken(t.gateway.services.db, m.team, 'viewer', { role: 'viewer' });
    const read = async (payment: string) => {
      const res = await gql(t, token, QUERY, { token: payment });
      expect(res.body.errors).toBeUndefined();
      return res.body.data.payment;
    };
    const pay = async (reference: string, card: string = CARDS.approved) =>
      (await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: reference, amount: '100.00' }, card: { number: card } }))).body.transaction.token as string;

    const refunded = await pay('REFUNDABLE-1');
    expect(await read(refunded)).toEqual({ amount: '100.00', currency: 'TRY', refundedAmount: '0.00', refundableAmount: '100.00', refundCurrency: 'TRY' });
    expect((await m.call('refund-payment', { transaction: { token: refunded }, amount: '30.00' })).body.result.successful).toBe(true);
    expect((await read(refunded)).refundableAmount).toBe('70.00');
    expect((await m.call('refund-payment', { transaction: { token: refunded } })).body.result.successful).toBe(true);
    expect((await read(refunded)).refundableAmount).toBe('0.00');

    const cancelled = await pay('REFUNDABLE-2');
    expect((await m.call('cancel-payment', { transaction: { token: cancelled } })).body.result.successful).toBe(true);
    expect((await read(cancelled)).refundableAmount).toBe('0.00');

    expect((await read(await pay('REFUNDABLE-3', CARDS.insufficientFunds))).refundableAmount).toBe('0.00');
  });

  it("names the overview's decline reasons in the reader's language", async () => {
    await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'DECLINED-1' }, card: { number: CARDS.insufficientFunds } }));
    const token = await createAccessToken(t.gateway.services.db, m.team, 'viewer', { role: 'viewer' });
    const query = `{ overview(days: 7) { declines { errorCode message count } } }`;
    const en = await gql(t, token, query);
    expect(en.body.data.overview.declines).toContainEqual(expect.objectContaining({ errorCode: 'insufficient_funds', message: 'Insufficient funds' }));
    const res = await fetch(`${t.gateway.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Accept-Language': 'tr' },
      body: JSON.stringify({ query }),
    });
    expect((await res.json()).data.overview.declines).toContainEqual(expect.objectContaining({ errorCode: 'insufficient_funds', message: 'Yetersiz bakiye' }));
  });
});
