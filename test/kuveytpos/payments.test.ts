// regular-payment, refund-payment and cancel-payment through Kuveyt Türk's KuveytPOS (the
// emulator), and the answers KuveytPOS lost: a sale answered too late is settled by the order
// inquiry (GetMerchantOrderDetail), a refund or cancel answered too late is found in the order's
// totals (DrawbackAmount, CancelAmount) by counting. A currency KuveytPOS does not take is refused
// unsent. No card number, CVC or password reaches the log or the record.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { msg } from '../helpers/messages.ts';
import { paymentBody } from '../helpers/payments.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { eventsOf, attemptsOf } from '../helpers/rows.ts';
import { bankPaymentCalls, seedBankMerchant } from '../helpers/bank.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import { RECONCILE_TRIES_MS } from '../../src/domain/payments/reconcile.ts';
import { INTERRUPTED_AFTER_MS } from '../../src/domain/payments/interrupted.ts';
import { recoverPendingRefunds } from '../../src/domain/payments/interrupted-refunds.ts';
import { KUVEYT_CARDS, kuveytBankAccount, kuveytCalls, kuveytOrder, setKuveytBehaviour, useKuveytEmulator } from './helpers.ts';

const { t } = useGateway();
const kuveyt = useKuveytEmulator();
const { merchant, pay, paid, refund, cancel, row } = bankPaymentCalls(t, () => seedBankMerchant(t, kuveytBankAccount(kuveyt.emulator, { timeout_ms: 1_000 })), { approved: KUVEYT_CARDS.approved, prefix: 'KTR' });
const bookOf = async (token: string) => {
  const o = await kuveytOrder(kuveyt.emulator, orderOf(token));
  return o && { code: o.responseCode, amount: o.amount, refunded: o.refunded, cancelled: o.cancelled };
};

describe('regular-payment through KuveytPOS', () => {
  it('an approved sale under the payment\u2019s order id; the card, CVC and password never reach the log or the record', async () => {
    const token = await paid();
    const order = await kuveytOrder(kuveyt.emulator, orderOf(token));
    expect(order).toMatchObject({ responseCode: '00', amount: 10_000, transactionSecurity: '1' });
    expect(await row(token)).toMatchObject({ status: 'successful', providerReference: `${orderOf(token)}:${order!.orderId}:${order!.rrn}:${order!.stan}:${order!.provision}:10000:949` });
    const logs = t.logLines.join('\n');
    expect(logs).not.toContain(KUVEYT_CARDS.approved);
    expect(logs).not.toMatch(/[">:=]321\b/);
    expect(logs).not.toContain(kuveyt.emulator.password);
    const attempts = await attemptsOf(t, token);
    expect(attempts).toEqual([expect.objectContaining({ provider: 'kuveytpos', operation: 'charge', outcome: 'succeeded' })]);
    const stored = JSON.stringify([await row(token), attempts], (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    for (const secret of [KUVEYT_CARDS.approved, kuveyt.emulator.password]) expect(stored).not.toContain(secret);
    expect(JSON.stringify(kuveytCalls(t, 'charge'))).toContain(orderOf(token));
  });

  it('a decline keeps KuveytPOS\u2019s code: do not honour is card_declined/05, insufficient funds insufficient_funds/51', async () => {
    const declined = await pay(KUVEYT_CARDS.doNotHonour);
    expect(declined.body.result).toEqual({ successful: false, message: msg('decline_card_declined'), error_code: 'card_declined' });
    expect(await row(declined.body.transaction.token as string)).toMatchObject({ status: 'failed', providerErrorCode: '05' });
    const poor = await pay(KUVEYT_CARDS.insufficientFunds);
    expect(poor.body.result).toEqual({ successful: false, message: msg('decline_insufficient_funds'), error_code: 'insufficient_funds' });
  });

  it('a currency KuveytPOS does not take (GBP) is refused before any call', async () => {
    const m = await merchant();
    const before = kuveytCalls(t).length;
    const res = await m.call('regular-payment', paymentBody(m, { card: { number: KUVEYT_CARDS.approved }, transaction: { channel_reference: 'KTR-826', currency: 'GBP' } }));
    expect(res.body.result).toMatchObject({ successful: false });
    expect(kuveytCalls(t)).toHaveLength(before);
  });
});

describe('refund-payment and cancel-payment through KuveytPOS', () => {
  it('a partial refund (PartialDrawback), then the rest: partially_refunded then refunded', async () => {
    const token = await paid();
    expect((await refund(token, '30.00')).body.result).toEqual({ successful: true, message: null });
    expect((await row(token)).paymentStatus).toBe('partially_refunded');
    expect((await refund(token)).body.refund).toEqual({ type: 'refund', amount: '70.00' });
    expect((await row(token)).paymentStatus).toBe('refunded');
    expect(await bookOf(token)).toEqual({ code: '00', amount: 10_000, refunded: 10_000, cancelled: false });
    expect(kuveytCalls(t, 'refund').slice(-2).map((c) => (c.request as { action: string }).action)).toEqual(['PartialDrawback', 'PartialDrawback']);
    expect(await eventsOf(t, token)).toEqual(['transaction.successful', 'transaction.payment_refunded', 'transaction.payment_refunded']);
  });

  it('a full refund goes as DrawBack', async () => {
    const token = await paid();
    expect((await refund(token)).body.result).toEqual({ successful: true, message: null });
    expect((kuveytCalls(t, 'refund').at(-1)!.request as { action: string }).action).toBe('DrawBack');
    expect(await bookOf(token)).toMatchObject({ refunded: 10_000 });
  });

  it('a cancel reverses the sale (SaleReversal): cancelled', async () => {
    const token = await paid();
    expect((await cancel(token)).body.result).toEqual({ successful: true, message: null });
    expect(await bookOf(token)).toMatchObject({ cancelled: true });
    expect((await row(token)).paymentStatus).toBe('cancelled');
  });
});

describe('answers KuveytPOS lost', () => {
  it('a sale answered too late: provider_timeout, then the reconcile job\u2019s order inquiry settles it successful', async () => {
    await merchant();
    await setKuveytBehaviour(kuveyt.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });
    const res = await pay();
    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout'), error_code: 'provider_timeout' });
    const token = res.body.transaction.token as string;
    expect(await row(token)).toMatchObject({ status: 'unresolved' });
    await expect.poll(() => bookOf(token), { timeout: 5_000 }).toMatchObject({ code: '00' });

    t.clock.advance(RECONCILE_TRIES_MS[0]! + 5_000);
    await runJobsDueBy(t);
    expect(kuveytCalls(t, 'paymentStatus').filter((c) => JSON.stringify(c).includes(orderOf(token)))).toHaveLength(1);
    const order = (await kuveytOrder(kuveyt.emulator, orderOf(token)))!;
    expect(await row(token)).toMatchObject({ status: 'successful', paymentStatus: 'paid', providerReference: `${orderOf(token)}:${order.orderId}:${order.rrn}:${order.stan}:${order.provision}:10000:949` });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
    // The reference the inquiry gave refunds like a direct answer's.
    expect((await refund(token, '10.00')).body.result).toEqual({ successful: true, message: null });
  });

  it('a refund answered too late: pending, then the order\u2019s DrawbackAmount finds it: succeeded, partially refunded', async () => {
    const token = await paid();
    await setKuveytBehaviour(kuveyt.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });
    const res = await refund(token, '30.00');
    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout_refund'), error_code: 'provider_timeout_refund' });
    await expect.poll(() => bookOf(token), { timeout: 5_000 }).toMatchObject({ refunded: 3_000 });

    t.clock.advance(INTERRUPTED_AFTER_MS + 1_000);
    await recoverPendingRefunds(t.gateway.services);
    expect(kuveytCalls(t, 'refundStatus').at(-1)!.request).toMatchObject({ action: 'GetMerchantOrderDetail', request: { MerchantOrderId: orderOf(token), OrderId: '0' } });
    expect(await row(token)).toMatchObject({ paymentStatus: 'partially_refunded', refundedAmount: 3_000n });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful', 'transaction.payment_refunded']);
  });

  it('a cancel answered too late: the order inquiry finds the sale cancelled', async () => {
    const token = await paid();
    await setKuveytBehaviour(kuveyt.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });
    const res = await cancel(token);
    expect(res.body.result).toMatchObject({ successful: false, error_code: 'provider_timeout_refund' });
    await expect.poll(() => bookOf(token), { timeout: 5_000 }).toMatchObject({ cancelled: true });

    t.clock.advance(INTERRUPTED_AFTER_MS + 1_000);
    await recoverPendingRefunds(t.gateway.services);
    expect((await row(token)).paymentStatus).toBe('cancelled');
  });
});
