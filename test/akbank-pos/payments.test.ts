// regular-payment, refund-payment and cancel-payment through Akbank's virtual POS (the
// emulator), and the answers Akbank lost: a sale answered too late is settled by the order
// history (txnCode 1010: Akbank has no status inquiry), a refund answered too late is found in
// the same history by counting. No card number, CVC or secret key reaches the log or the record.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { msg } from '../helpers/messages.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { eventsOf, attemptsOf } from '../helpers/rows.ts';
import { bankPaymentCalls } from '../helpers/bank.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import { RECONCILE_TRIES_MS } from '../../src/domain/payments/reconcile.ts';
import { INTERRUPTED_AFTER_MS } from '../../src/domain/payments/interrupted.ts';
import { recoverPendingRefunds } from '../../src/domain/payments/interrupted-refunds.ts';
import { AKBANK_CARDS, akbankCalls, akbankOrder, seedAkbankMerchant, setAkbankBehaviour, txnsAt, useAkbankEmulator } from './helpers.ts';

const { t } = useGateway();
const akbank = useAkbankEmulator();
const { merchant, pay, paid, refund, cancel, row } = bankPaymentCalls(t, () => seedAkbankMerchant(t, akbank.emulator, { timeoutMs: 1_000 }), { approved: AKBANK_CARDS.approved, prefix: 'AKB' });
const txns = (token: string) => txnsAt(akbank.emulator, orderOf(token));

describe('regular-payment through Akbank', () => {
  it('an approved sale under the payment\u2019s order id; the card, CVC and secret key never reach the log or the record', async () => {
    const token = await paid();
    expect(await row(token)).toMatchObject({ status: 'successful', providerReference: orderOf(token) });
    expect(await txns(token)).toEqual(['1000:VPS-0000:10000']);
    const logs = t.logLines.join('\n');
    expect(logs).not.toContain(AKBANK_CARDS.approved);
    expect(logs).not.toMatch(/[">:=]321\b/);
    expect(logs).not.toContain(akbank.emulator.secretKey);
    const attempts = await attemptsOf(t, token);
    expect(attempts).toEqual([expect.objectContaining({ provider: 'akbank-pos', operation: 'charge', outcome: 'succeeded' })]);
    const stored = JSON.stringify([await row(token), attempts], (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    for (const secret of [AKBANK_CARDS.approved, akbank.emulator.secretKey]) expect(stored).not.toContain(secret);
    // References stay readable: the order id is in the exchange, the card data is not.
    const charge = JSON.stringify(akbankCalls(t, 'charge'));
    expect(charge).toContain(orderOf(token));
    expect(charge).toContain('"cardNumber":"[redacted]"');
  });

  it('a decline keeps Akbank\u2019s code: do not honour is card_declined VPS-1005:05, insufficient funds insufficient_funds', async () => {
    const declined = await pay(AKBANK_CARDS.doNotHonour);
    expect(declined.body.result).toEqual({ successful: false, message: msg('decline_card_declined'), error_code: 'card_declined' });
    expect(await row(declined.body.transaction.token as string)).toMatchObject({ status: 'failed', providerErrorCode: 'VPS-1005:05' });
    const poor = await pay(AKBANK_CARDS.insufficientFunds);
    expect(poor.body.result).toEqual({ successful: false, message: msg('decline_insufficient_funds'), error_code: 'insufficient_funds' });
  });
});

describe('refund-payment and cancel-payment through Akbank', () => {
  it('a partial refund, then the rest: two refunds on the order; partially_refunded then refunded; a third is refused', async () => {
    const token = await paid();
    expect((await refund(token, '30.00')).body.result).toEqual({ successful: true, message: null });
    expect((await row(token)).paymentStatus).toBe('partially_refunded');
    expect((await refund(token)).body.refund).toEqual({ type: 'refund', amount: '70.00' });
    expect((await row(token)).paymentStatus).toBe('refunded');
    expect(await txns(token)).toEqual(['1000:VPS-0000:10000', '1002:VPS-0000:3000', '1002:VPS-0000:7000']);
    expect(await eventsOf(t, token)).toEqual(['transaction.successful', 'transaction.payment_refunded', 'transaction.payment_refunded']);
  });

  it('a cancel voids the sale', async () => {
    const token = await paid();
    expect((await cancel(token)).body.result).toEqual({ successful: true, message: null });
    expect(await txns(token)).toEqual(['1000:VPS-0000:10000:V', '1003:VPS-0000:10000']);
    expect((await akbankOrder(akbank.emulator, orderOf(token)))!.charged).toBe(0);
  });
});

describe('answers Akbank lost', () => {
  it('a sale answered too late: provider_timeout, then the reconcile job\u2019s order history settles it successful', async () => {
    await merchant();
    await setAkbankBehaviour(akbank.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });
    const res = await pay();
    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout'), error_code: 'provider_timeout' });
    const token = res.body.transaction.token as string;
    expect(await row(token)).toMatchObject({ status: 'unresolved' });
    await expect.poll(() => txns(token), { timeout: 5_000 }).toEqual(['1000:VPS-0000:10000']);

    t.clock.advance(RECONCILE_TRIES_MS[0]! + 5_000);
    await runJobsDueBy(t);
    const asked = akbankCalls(t, 'paymentStatus').filter((c) => JSON.stringify(c).includes(orderOf(token)));
    expect(asked).toHaveLength(1);
    expect(asked[0]!.request).toMatchObject({ txnCode: '1010', order: { orderId: orderOf(token) } });
    expect(await row(token)).toMatchObject({ status: 'successful', paymentStatus: 'paid', providerReference: orderOf(token) });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });

  it('a refund answered too late: pending, then the order history finds it by counting: succeeded, partially refunded', async () => {
    const token = await paid();
    await setAkbankBehaviour(akbank.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });
    const res = await refund(token, '30.00');
    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout_refund'), error_code: 'provider_timeout_refund' });
    await expect.poll(() => txns(token), { timeout: 5_000 }).toEqual(['1000:VPS-0000:10000', '1002:VPS-0000:3000']);

    t.clock.advance(INTERRUPTED_AFTER_MS + 1_000);
    await recoverPendingRefunds(t.gateway.services);
    expect(akbankCalls(t, 'refundStatus').at(-1)!.request).toMatchObject({ txnCode: '1010', order: { orderId: orderOf(token) } });
    expect(await row(token)).toMatchObject({ paymentStatus: 'partially_refunded', refundedAmount: 3_000n });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful', 'transaction.payment_refunded']);
  });
});
