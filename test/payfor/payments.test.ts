// regular-payment, refund-payment and cancel-payment through QNB Finansbank's PayFor (the
// emulator), and the answers PayFor lost: a sale answered too late is settled by the order
// inquiry (OrderInquiry), a refund answered too late is found in the order's history report
// (TxnHistory) by counting. A refund of a sale still in the day's batch is refused as PayFor
// refuses it (V014: cancel it instead). No card number, CVC or password reaches the log.
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
import { PAYFOR_CARDS, payforCalls, payforOrder, seedPayforMerchant, setPayforBehaviour, usePayforEmulator } from './helpers.ts';

const { t } = useGateway();
const payfor = usePayforEmulator();
const { merchant, pay, paid, refund, cancel, row } = bankPaymentCalls(t, () => seedPayforMerchant(t, payfor.emulator, { timeoutMs: 1_000 }), { approved: PAYFOR_CARDS.approved, prefix: 'PFR' });
const txnsAt = async (token: string) => (await payforOrder(payfor.emulator, orderOf(token)))?.txns.map((x) => `${x.type}:${x.code}:${x.amount}`);

describe('regular-payment through PayFor', () => {
  it('an approved sale under the payment\u2019s order id; the card, CVC and password never reach the log', async () => {
    const token = await paid();
    expect(await row(token)).toMatchObject({ status: 'successful', providerReference: orderOf(token) });
    expect(await txnsAt(token)).toEqual(['Auth:00:10000']);
    const logs = t.logLines.join('\n');
    expect(logs).not.toContain(PAYFOR_CARDS.approved);
    expect(logs).not.toMatch(/[">:=]321\b/);
    expect(logs).not.toContain(payfor.emulator.userPassword);
    // Nor the payment's record, its provider calls included.
    const attempts = await attemptsOf(t, token);
    expect(attempts).toEqual([expect.objectContaining({ provider: 'payfor', operation: 'charge', outcome: 'succeeded' })]);
    const stored = JSON.stringify([await row(token), attempts], (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    for (const secret of [PAYFOR_CARDS.approved, payfor.emulator.userPassword, payfor.emulator.storeKey]) expect(stored).not.toContain(secret);
    // References stay readable: the order id and the masked card are in the exchange.
    expect(JSON.stringify(payforCalls(t, 'charge'))).toContain(orderOf(token));
  });

  it('a decline keeps PayFor\u2019s code: do not honour is card_declined/05, insufficient funds insufficient_funds/51', async () => {
    const declined = await pay(PAYFOR_CARDS.doNotHonour);
    expect(declined.body.result).toEqual({ successful: false, message: msg('decline_card_declined'), error_code: 'card_declined' });
    expect(await row(declined.body.transaction.token as string)).toMatchObject({ status: 'failed', providerErrorCode: '05' });
    const poor = await pay(PAYFOR_CARDS.insufficientFunds);
    expect(poor.body.result).toEqual({ successful: false, message: msg('decline_insufficient_funds'), error_code: 'insufficient_funds' });
  });
});

describe('refund-payment and cancel-payment through PayFor', () => {
  it('a partial refund, then the rest: two Refund transactions on the order; partially_refunded then refunded', async () => {
    const token = await paid();
    expect((await refund(token, '30.00')).body.result).toEqual({ successful: true, message: null });
    expect((await row(token)).paymentStatus).toBe('partially_refunded');
    expect((await refund(token)).body.refund).toEqual({ type: 'refund', amount: '70.00' });
    expect((await row(token)).paymentStatus).toBe('refunded');
    expect(await txnsAt(token)).toEqual(['Auth:00:10000', 'Refund:00:3000', 'Refund:00:7000']);
    expect(await eventsOf(t, token)).toEqual(['transaction.successful', 'transaction.payment_refunded', 'transaction.payment_refunded']);
  });

  it('a cancel voids the sale', async () => {
    const token = await paid();
    expect((await cancel(token)).body.result).toEqual({ successful: true, message: null });
    expect(await txnsAt(token)).toEqual(['Auth:00:10000', 'Void:00:10000']);
    expect((await payforOrder(payfor.emulator, orderOf(token)))!.charged).toBe(0);
  });

  it('a refund of a sale still in the day\u2019s batch: refund_rejected with PayFor\u2019s V014; the cancel then goes through', async () => {
    const token = await paid(PAYFOR_CARDS.openBatch);
    const res = await refund(token, '10.00');
    expect(res.body.result).toMatchObject({ successful: false, error_code: 'refund_rejected' });
    expect(await txnsAt(token)).toEqual(['Auth:00:10000', 'Refund:V014:1000']);
    expect((await cancel(token)).body.result).toEqual({ successful: true, message: null });
  });
});

describe('answers PayFor lost', () => {
  it('a sale answered too late: provider_timeout, then the reconcile job\u2019s order inquiry settles it successful', async () => {
    await merchant();
    await setPayforBehaviour(payfor.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });
    const res = await pay();
    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout'), error_code: 'provider_timeout' });
    const token = res.body.transaction.token as string;
    expect(await row(token)).toMatchObject({ status: 'unresolved' });
    await expect.poll(() => txnsAt(token), { timeout: 5_000 }).toEqual(['Auth:00:10000']);

    t.clock.advance(RECONCILE_TRIES_MS[0]! + 5_000);
    await runJobsDueBy(t);
    expect(payforCalls(t, 'paymentStatus').filter((c) => JSON.stringify(c).includes(orderOf(token)))).toHaveLength(1);
    expect(await row(token)).toMatchObject({ status: 'successful', paymentStatus: 'paid', providerReference: orderOf(token) });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });

  it('a refund answered too late: pending, then the history report finds it by counting: succeeded, partially refunded', async () => {
    const token = await paid();
    await setPayforBehaviour(payfor.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });
    const res = await refund(token, '30.00');
    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout_refund'), error_code: 'provider_timeout_refund' });
    await expect.poll(() => txnsAt(token), { timeout: 5_000 }).toEqual(['Auth:00:10000', 'Refund:00:3000']);

    t.clock.advance(INTERRUPTED_AFTER_MS + 1_000);
    await recoverPendingRefunds(t.gateway.services);
    expect(payforCalls(t, 'refundStatus').at(-1)!.request).toMatchObject({ SecureType: 'Report', TxnType: 'TxnHistory', OrderId: orderOf(token) });
    expect(await row(token)).toMatchObject({ paymentStatus: 'partially_refunded', refundedAmount: 3_000n });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful', 'transaction.payment_refunded']);
  });
});
