// regular-payment, refund-payment and cancel-payment through VakıfBank's PayFlex (the emulator),
// and the answers PayFlex lost: a sale answered too late is settled by the search (by its order id,
// the reconcile job), a refund or a cancel answered too late is found by the search under the
// TransactionId the gateway gave it. No card number, CVC or password reaches the log or the record.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { msg } from '../helpers/messages.ts';
import { paymentBody } from '../helpers/payments.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { eventsOf, attemptsOf } from '../helpers/rows.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import { bankCalls, bankPaymentCalls } from '../helpers/bank.ts';
import { RECONCILE_TRIES_MS } from '../../src/domain/payments/reconcile.ts';
import { INTERRUPTED_AFTER_MS } from '../../src/domain/payments/interrupted.ts';
import { recoverPendingRefunds } from '../../src/domain/payments/interrupted-refunds.ts';
import { PAYFLEX_CARDS, payflexOrder, seedPayflexMerchant, setPayflexBehaviour, usePayflexEmulator } from './helpers.ts';

const { t } = useGateway();
const payflex = usePayflexEmulator();
const { merchant, pay, paid, refund, cancel, row } = bankPaymentCalls(t, () => seedPayflexMerchant(t, payflex.emulator, { timeoutMs: 1_000, installmentRatesBp: [0, 300, 450] }), { approved: PAYFLEX_CARDS.approved, prefix: 'VFR' });
const txnsAt = async (token: string) => (await payflexOrder(payflex.emulator, orderOf(token)))?.txns.map((x) => `${x.type}:${x.code}:${x.amount}`);
const calls = (operation: string, token: string) => bankCalls(t, 'payflex', operation).filter((c) => JSON.stringify(c).includes(orderOf(token)));

describe('regular-payment through PayFlex', () => {
  it('an approved sale under the payment\u2019s order id; the card, CVC and password never reach the log or the record', async () => {
    const token = await paid();
    const sale = (await payflexOrder(payflex.emulator, orderOf(token)))!.txns[0]!;
    expect(await row(token)).toMatchObject({ status: 'successful', providerReference: `${orderOf(token)}:${sale.transactionId}` });
    expect(await txnsAt(token)).toEqual(['Sale:0000:10000']);
    const logs = t.logLines.join('\n');
    expect(logs).not.toContain(PAYFLEX_CARDS.approved);
    expect(logs).not.toMatch(/[">:=]321\b/);
    expect(logs).not.toContain(payflex.emulator.password);
    const attempts = await attemptsOf(t, token);
    expect(attempts).toEqual([expect.objectContaining({ provider: 'payflex', operation: 'charge', outcome: 'succeeded' })]);
    const stored = JSON.stringify([await row(token), attempts], (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    for (const secret of [PAYFLEX_CARDS.approved, payflex.emulator.password]) expect(stored).not.toContain(secret);
    expect(calls('charge', token)[0]!.request).toMatchObject({ TransactionType: 'Sale', OrderId: orderOf(token), Pan: `****${PAYFLEX_CARDS.approved.slice(-4)}`, Cvv: '[redacted]', Password: '[redacted]' });
  });

  it('a decline keeps PayFlex\u2019s code: do not honour card_declined/0005, insufficient funds insufficient_funds/0051', async () => {
    const declined = await pay(PAYFLEX_CARDS.doNotHonour);
    expect(declined.body.result).toEqual({ successful: false, message: msg('decline_card_declined'), error_code: 'card_declined' });
    expect(await row(declined.body.transaction.token as string)).toMatchObject({ status: 'failed', providerErrorCode: '0005' });
    const poor = await pay(PAYFLEX_CARDS.insufficientFunds);
    expect(poor.body.result).toEqual({ successful: false, message: msg('decline_insufficient_funds'), error_code: 'insufficient_funds' });
  });

  it('in 3 instalments at the account\u2019s rate: NumberOfInstallments 3 and the surcharged total; retrieve-bin quotes the plan without asking the bank', async () => {
    const m = await merchant();
    const quote = await m.call('retrieve-bin', { card: { bin: '45063491' }, transaction: { amount: '100.00' } });
    expect(quote.body.installments).toEqual(expect.arrayContaining([{ number: 3, amount: '34.83', total: '104.50' }]));
    const res = await m.call('regular-payment', paymentBody(m, { card: { number: PAYFLEX_CARDS.approved }, transaction: { channel_reference: 'VFR-3x', amount: '104.50', installment_number: 3 } }));
    expect(res.body.result, res.text).toEqual({ successful: true, message: null });
    const token = res.body.transaction.token as string;
    expect(calls('charge', token)[0]!.request).toMatchObject({ NumberOfInstallments: '3', CurrencyAmount: '104.50' });
  });
  it('a USD and a EUR sale go with their ISO numbers (840, 978)', async () => {
    const m = await merchant();
    for (const [currency, code] of [['USD', '840'], ['EUR', '978']] as const) {
      const res = await m.call('regular-payment', paymentBody(m, { card: { number: PAYFLEX_CARDS.approved }, transaction: { channel_reference: `VFR-${code}`, amount: '12.34', currency } }));
      expect(res.body.result, res.text).toEqual({ successful: true, message: null });
      expect(calls('charge', res.body.transaction.token as string)[0]!.request).toMatchObject({ CurrencyAmount: '12.34', CurrencyCode: code });
    }
  });
});

describe('refund-payment and cancel-payment through PayFlex', () => {
  it('a partial refund, then the rest: two Refund transactions on the sale; partially_refunded then refunded', async () => {
    const token = await paid();
    expect((await refund(token, '30.00')).body.result).toEqual({ successful: true, message: null });
    expect((await row(token)).paymentStatus).toBe('partially_refunded');
    expect((await refund(token)).body.refund).toEqual({ type: 'refund', amount: '70.00' });
    expect((await row(token)).paymentStatus).toBe('refunded');
    expect(await txnsAt(token)).toEqual(['Sale:0000:10000', 'Refund:0000:3000', 'Refund:0000:7000']);
    expect(await eventsOf(t, token)).toEqual(['transaction.successful', 'transaction.payment_refunded', 'transaction.payment_refunded']);
  });

  it('a cancel voids the sale it names by the bank\u2019s TransactionId', async () => {
    const token = await paid();
    expect((await cancel(token)).body.result).toEqual({ successful: true, message: null });
    expect(await txnsAt(token)).toEqual(['Sale:0000:10000', 'Cancel:0000:10000']);
    expect((await payflexOrder(payflex.emulator, orderOf(token)))!.charged).toBe(0);
    const sale = (await payflexOrder(payflex.emulator, orderOf(token)))!.txns[0]!;
    expect(calls('cancel', token)).toHaveLength(0); // the cancel names the sale's TransactionId, not the order
    expect(bankCalls(t, 'payflex', 'cancel').at(-1)!.request).toMatchObject({ TransactionType: 'Cancel', ReferenceTransactionId: sale.transactionId });
  });
});

describe('answers PayFlex lost', () => {
  it('a sale answered too late: provider_timeout, then the reconcile job\u2019s search settles it successful', async () => {
    await merchant();
    await setPayflexBehaviour(payflex.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });
    const res = await pay();
    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout'), error_code: 'provider_timeout' });
    const token = res.body.transaction.token as string;
    expect(await row(token)).toMatchObject({ status: 'unresolved' });
    await expect.poll(() => txnsAt(token), { timeout: 5_000 }).toEqual(['Sale:0000:10000']);

    t.clock.advance(RECONCILE_TRIES_MS[0]! + 5_000);
    await runJobsDueBy(t);
    expect(calls('paymentStatus', token)).toHaveLength(1);
    const sale = (await payflexOrder(payflex.emulator, orderOf(token)))!.txns[0]!;
    expect(await row(token)).toMatchObject({ status: 'successful', paymentStatus: 'paid', providerReference: `${orderOf(token)}:${sale.transactionId}` });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
    // The settled sale can be refunded: the reference names the bank's TransactionId.
    expect((await refund(token, '10.00')).body.result).toEqual({ successful: true, message: null });
  });

  it('a sale the bank never received: the search finds nothing, so the payment is not settled successful (it fails after the last try)', async () => {
    await merchant();
    await setPayflexBehaviour(payflex.emulator, { mode: 'timeout', count: 1 });
    const res = await pay();
    const token = res.body.transaction.token as string;
    expect(await row(token)).toMatchObject({ status: 'unresolved' });
    expect(await txnsAt(token)).toBeUndefined();
    t.clock.advance(RECONCILE_TRIES_MS[0]! + 5_000);
    await runJobsDueBy(t);
    expect(calls('paymentStatus', token).at(-1)!.response).toMatchObject({ node: { TotalItemCount: '0' } });
    expect(await row(token)).toMatchObject({ status: 'unresolved' });
  });

  it('a refund answered too late: pending, then the search finds it by its TransactionId: succeeded, partially refunded', async () => {
    const token = await paid();
    await setPayflexBehaviour(payflex.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });
    const res = await refund(token, '30.00');
    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout_refund'), error_code: 'provider_timeout_refund' });
    await expect.poll(() => txnsAt(token), { timeout: 5_000 }).toEqual(['Sale:0000:10000', 'Refund:0000:3000']);

    t.clock.advance(INTERRUPTED_AFTER_MS + 1_000);
    await recoverPendingRefunds(t.gateway.services);
    const refundTxn = (await payflexOrder(payflex.emulator, orderOf(token)))!.txns[1]!;
    expect(bankCalls(t, 'payflex', 'refundStatus').at(-1)!.request).toMatchObject({ TransactionCriteria: { TransactionId: refundTxn.transactionId, OrderId: orderOf(token) } });
    expect(await row(token)).toMatchObject({ paymentStatus: 'partially_refunded', refundedAmount: 3_000n });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful', 'transaction.payment_refunded']);
  });

  it('a cancel answered too late is found the same way: the payment is cancelled', async () => {
    const token = await paid();
    await setPayflexBehaviour(payflex.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });
    await cancel(token);
    await expect.poll(() => txnsAt(token), { timeout: 5_000 }).toEqual(['Sale:0000:10000', 'Cancel:0000:10000']);
    t.clock.advance(INTERRUPTED_AFTER_MS + 1_000);
    await recoverPendingRefunds(t.gateway.services);
    expect((await row(token)).paymentStatus).toBe('cancelled');
  });
});
