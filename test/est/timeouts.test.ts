// The bank not answering in time (the EST account's timeout_ms is 1 s): regular-payment answers
// the gateway's provider_timeout and the payment stays unresolved, without an event. The
// reconcile-payment job then asks EST's order inquiry (ORDERSTATUS) by the payment's order id: a
// sale the bank carried out late (emulator `slow`) is settled successful with
// transaction.successful; one it never saw (emulator `timeout`) stays unresolved at each try.
// A refund or cancel left pending the same way is found by the recover-interrupted job in the
// order's history (ORDERHISTORY): a credit counted against the payment's recorded refunds, or the
// sale voided.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { msg } from '../helpers/messages.ts';
import { paymentBody, postCallback } from '../helpers/payments.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { eventsOf } from '../helpers/rows.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { RECONCILE_TRIES_MS } from '../../src/domain/payments/reconcile.ts';
import { INTERRUPTED_AFTER_MS } from '../../src/domain/payments/interrupted.ts';
import { recoverPendingRefunds } from '../../src/domain/payments/interrupted-refunds.ts';
import { answerEstAcs, EST_CARDS, estCalls, estOrderOf, seedEstMerchant, setEstBehaviour, useEstEmulator } from '../helpers/est.ts';
import { orderOf } from '../helpers/bank-orders.ts';

const { t } = useGateway();
const est = useEstEmulator();
let m: Merchant;
let reference = 8000;

const merchant = async () => (m ??= await seedEstMerchant(t, est.emulator, { timeoutMs: 1_000 }));
const pay = () => m.call('regular-payment', paymentBody(m, { card: { number: EST_CARDS.approved }, transaction: { channel_reference: `ESTT-${reference++}` } }));
const row = (id: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } });
const retrieve = async (token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result;
/** The reconcile job's ORDERSTATUS inquiries about a payment's order. */
const inquiries = (token: string) => estCalls(t, 'paymentStatus').filter((c) => c.request.OrderId === orderOf(token));

describe('a charge the bank answers too late', () => {
  it('answers provider_timeout (unresolved, no event); the reconcile job asks ORDERSTATUS, finds the sale and settles it successful', async () => {
    await merchant();
    await setEstBehaviour(est.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });

    const res = await pay();

    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout'), error_code: 'provider_timeout' });
    const token = res.body.transaction.token as string;
    expect(await row(token)).toMatchObject({ status: 'unresolved', errorCode: 'provider_timeout' });
    expect(await eventsOf(t, token)).toEqual([]);
    // The bank carries the sale out once its delay is over.
    await expect.poll(() => estOrderOf(est.emulator, token)?.transactions.map((tx) => tx.status), { timeout: 5_000 }).toEqual(['A']);

    // Before its first try the job does not ask.
    t.clock.advance(RECONCILE_TRIES_MS[0]! - 5_000);
    await runJobsDueBy(t);
    expect(inquiries(token)).toEqual([]);
    t.clock.advance(10_000);
    await runJobsDueBy(t);

    expect(inquiries(token)).toHaveLength(1);
    expect(inquiries(token)[0]!.request).toMatchObject({ Extra: { ORDERSTATUS: 'QUERY' } });
    // Settled successful, it no longer carries the timeout as its error, in the row or in retrieve-payments.
    expect(await row(token)).toMatchObject({ status: 'successful', paymentStatus: 'paid', providerReference: orderOf(token), errorCode: null, errorMessage: null });
    expect(await retrieve(token)).toEqual({ successful: true, message: null });
    const listed = (await m.call('retrieve-payments', { channel_reference: res.body.transaction.channel_reference })).body.payments as Array<Record<string, unknown>>;
    expect(listed).toEqual([expect.objectContaining({ token, status: 'successful', error_code: null, error_message: null })]);
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });
});

describe('a charge the bank never carried out', () => {
  it('answers provider_timeout; the inquiry finds no such order, so the payment stays unresolved after the first try', async () => {
    await merchant();
    await setEstBehaviour(est.emulator, { mode: 'timeout', count: 1 });

    const res = await pay();

    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout'), error_code: 'provider_timeout' });
    const token = res.body.transaction.token as string;
    expect(estOrderOf(est.emulator, token)).toBeUndefined();
    const unresolvedAt = (await row(token)).completedAt!.getTime();

    t.clock.set(new Date(unresolvedAt + RECONCILE_TRIES_MS[0]! + 1_000));
    await runJobsDueBy(t);

    expect(inquiries(token)).toHaveLength(1);
    expect((await row(token)).status).toBe('unresolved');
    expect(await eventsOf(t, token)).toEqual([]);
    expect(estOrderOf(est.emulator, token)).toBeUndefined();
  });
});

describe('a 3D authorisation the bank answers too late', () => {
  it('leaves the payment unresolved; the reconcile job asks ORDERSTATUS by the order id and settles it successful', async () => {
    await merchant();
    const started = await m.call('secure-payment', paymentBody(m, { card: { number: EST_CARDS.approved }, transaction: { channel_reference: `ESTT-${reference++}` } }));
    const token = started.body.transaction.token as string;
    const answer = await answerEstAcs(started.body.result.redirect_url as string);
    await setEstBehaviour(est.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });

    const back = await postCallback(answer.callbackUrl, answer.fields);

    expect(back.status).toBeLessThan(500);
    expect(await row(token)).toMatchObject({ status: 'unresolved', errorCode: 'provider_timeout' });
    expect(await eventsOf(t, token)).toEqual([]);
    await expect.poll(() => estOrderOf(est.emulator, token)?.transactions.map((tx) => tx.status), { timeout: 5_000 }).toEqual(['A']);

    t.clock.advance(RECONCILE_TRIES_MS[0]! + 1_000);
    await runJobsDueBy(t);

    expect(inquiries(token)).toHaveLength(1);
    expect(await row(token)).toMatchObject({ status: 'successful', providerReference: orderOf(token) });
    expect(await retrieve(token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });
});

describe('a cancel the bank answers too late', () => {
  it('stays pending with its amount reserved; the recover-interrupted job asks ORDERHISTORY, sees the sale voided and records the cancel', async () => {
    await merchant();
    const paid = await pay();
    expect(paid.body.result).toEqual({ successful: true, message: null });
    const token = paid.body.transaction.token as string;
    await setEstBehaviour(est.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });

    t.clock.advance(1_000);
    const res = await m.call('cancel-payment', { transaction: { token } });

    expect(res.status, res.text).toBeLessThan(500);
    expect(res.body.result.successful).toBe(false);
    const [pending] = await t.gateway.services.db.refund.findMany({ where: { paymentId: token } });
    expect(pending).toMatchObject({ type: 'cancel', status: 'pending' });
    // The bank voids the sale once its delay is over.
    await expect.poll(() => estOrderOf(est.emulator, token)?.transactions.map((tx) => tx.status), { timeout: 5_000 }).toEqual(['V']);

    t.clock.advance(INTERRUPTED_AFTER_MS + 1_000);
    await recoverPendingRefunds(t.gateway.services);

    const asked = estCalls(t, 'refundStatus').filter((c) => c.request.OrderId === orderOf(token));
    expect(asked).toHaveLength(1);
    expect(asked[0]!.request).toMatchObject({ Extra: { ORDERHISTORY: 'QUERY' } });
    expect(await t.gateway.services.db.refund.findUniqueOrThrow({ where: { id: pending!.id } })).toMatchObject({ status: 'succeeded' });
    expect((await row(token)).paymentStatus).toBe('cancelled');
    expect(await eventsOf(t, token)).toEqual(['transaction.successful', 'transaction.payment_cancelled']);
  });
});

describe('a refund the bank answers too late', () => {
  const refunds = (paymentId: string) => t.gateway.services.db.refund.findMany({ where: { paymentId }, orderBy: { createdAt: 'asc' } });

  it('stays pending with its amount reserved; the recover-interrupted job finds the credit in ORDERHISTORY: succeeded, partially refunded', async () => {
    await merchant();
    const paid = await pay();
    const token = paid.body.transaction.token as string;
    await setEstBehaviour(est.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });
    t.clock.advance(1_000);

    const res = await m.call('refund-payment', { transaction: { token }, amount: '40.00' });

    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout_refund'), error_code: 'provider_timeout_refund' });
    expect(await row(token)).toMatchObject({ paymentStatus: 'paid', refundedAmount: 4_000n });
    await expect.poll(() => estOrderOf(est.emulator, token)?.transactions.map((tx) => `${tx.chargeType}:${tx.status}:${tx.amountMinor}`), { timeout: 5_000 }).toEqual(['S:A:10000', 'C:A:4000']);

    t.clock.advance(INTERRUPTED_AFTER_MS + 1_000);
    await recoverPendingRefunds(t.gateway.services);

    const asked = estCalls(t, 'refundStatus').filter((c) => c.request.OrderId === orderOf(token));
    expect(asked).toHaveLength(1);
    expect(asked[0]!.request).toMatchObject({ Extra: { ORDERHISTORY: 'QUERY' } });
    expect(await refunds(token)).toEqual([expect.objectContaining({ status: 'succeeded', amount: 4_000n })]);
    expect(await row(token)).toMatchObject({ paymentStatus: 'partially_refunded', refundedAmount: 4_000n });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful', 'transaction.payment_refunded']);
  });

  it('one the bank never received, after a recorded refund of the same amount: failed, its amount released', async () => {
    await merchant();
    const paid = await pay();
    const token = paid.body.transaction.token as string;
    t.clock.advance(1_000);
    expect((await m.call('refund-payment', { transaction: { token }, amount: '40.00' })).body.result).toEqual({ successful: true, message: null });
    await setEstBehaviour(est.emulator, { mode: 'timeout', count: 1 });
    t.clock.advance(1_000);

    const res = await m.call('refund-payment', { transaction: { token }, amount: '40.00' });

    expect(res.body.result).toMatchObject({ successful: false, error_code: 'provider_timeout_refund' });
    expect(await row(token)).toMatchObject({ refundedAmount: 8_000n });
    t.clock.advance(INTERRUPTED_AFTER_MS + 1_000);
    await recoverPendingRefunds(t.gateway.services);

    expect((await refunds(token)).map((r) => [r.status, r.amount, r.errorCode])).toEqual([
      ['succeeded', 4_000n, null],
      ['failed', 4_000n, 'refund_not_received'],
    ]);
    expect(await row(token)).toMatchObject({ paymentStatus: 'partially_refunded', refundedAmount: 4_000n });
    expect(estOrderOf(est.emulator, token)!.transactions.map((tx) => `${tx.chargeType}:${tx.amountMinor}`)).toEqual(['S:10000', 'C:4000']);
    expect(await eventsOf(t, token)).toEqual(['transaction.successful', 'transaction.payment_refunded']);
  });

  it('two refunds of one amount both lost, the bank made one: the earlier is found succeeded, the later then fails as never received', async () => {
    await merchant();
    const paid = await pay();
    const token = paid.body.transaction.token as string;
    await setEstBehaviour(est.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });
    t.clock.advance(1_000);
    expect((await m.call('refund-payment', { transaction: { token }, amount: '30.00' })).body.result).toMatchObject({ error_code: 'provider_timeout_refund' });
    await setEstBehaviour(est.emulator, { mode: 'timeout', count: 1 });
    t.clock.advance(1_000);
    expect((await m.call('refund-payment', { transaction: { token }, amount: '30.00' })).body.result).toMatchObject({ error_code: 'provider_timeout_refund' });
    await expect.poll(() => estOrderOf(est.emulator, token)?.transactions.length, { timeout: 5_000 }).toBe(2);

    t.clock.advance(INTERRUPTED_AFTER_MS + 1_000);
    await recoverPendingRefunds(t.gateway.services);

    expect((await refunds(token)).map((r) => [r.status, r.errorCode])).toEqual([
      ['succeeded', null],
      ['failed', 'refund_not_received'],
    ]);
    expect(await row(token)).toMatchObject({ paymentStatus: 'partially_refunded', refundedAmount: 3_000n });
  });
});
