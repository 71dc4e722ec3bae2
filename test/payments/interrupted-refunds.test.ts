// Refunds and cancels left `pending` by a crash (or an unanswered bank): the amount is reserved
// on the payment as refund-payment reserves it (refunds.ts), and when the bank got the call it is
// made on the gateway's own simulator with the request's idempotency key, so the bank's books
// hold an answer nobody recorded. The recover-interrupted sweep asks the bank and finishes them.
import { describe, expect, it } from 'vitest';
import { startTestGateway } from '../helpers/gateway.ts';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { eventually } from '../helpers/webhooks.ts';
import { INTERRUPTED_AFTER_MS } from '../../src/domain/payments/interrupted.ts';
import { REFUND_KEEP_ASKING_MS, recoverPendingRefunds } from '../../src/domain/payments/interrupted-refunds.ts';

const SILENT_REFUND_CARD = '4000000000000267';

const { t, merchant: m } = useGateway({ merchant: true });
let reference = 1;

const db = () => t.gateway.services.db;
const payment = (id: string) => db().payment.findUniqueOrThrow({ where: { id } });
const refundRow = (id: string) => db().refund.findUniqueOrThrow({ where: { id } });

/** A successful regular payment of 200.00 TRY (20000 kuruş) on the card. */
async function paid(card: string = CARDS.approved): Promise<string> {
  const res = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: `IRF-${reference++}`, amount: '200.00' }, card: { number: card } }));
  expect(res.body.result.successful).toBe(true);
  return res.body.transaction.token;
}

/** The reservation refund-payment or cancel-payment writes before asking the bank, left as the crash left it. */
async function interruptedRefund(paymentId: string, type: 'refund' | 'cancel', amount: bigint, bankGotIt: boolean): Promise<string> {
  const refund = await db().$transaction(async (tx) => {
    await tx.payment.update({ where: { id: paymentId }, data: { refundedAmount: { increment: amount } } });
    return tx.refund.create({ data: { paymentId, type, status: 'pending', amount, createdAt: t.clock.now() } });
  });
  if (bankGotIt) {
    const simulator = t.gateway.services.providers.definition('simulator').connect({ id: 'test', credentials: {}, settings: {} });
    const providerReference = (await payment(paymentId)).providerReference!;
    const idempotencyKey = `${type}:${refund.id}`;
    if (type === 'refund') await simulator.refund({ idempotencyKey, providerReference, amount, currency: 'TRY' });
    else await simulator.cancel({ idempotencyKey, providerReference });
  }
  return refund.id;
}

async function sweepLater(ms = INTERRUPTED_AFTER_MS + 1000): Promise<void> {
  t.clock.advance(ms);
  await recoverPendingRefunds(t.gateway.services);
}

describe('a refund interrupted after the bank was asked', () => {
  it('is completed when the bank refunded it, with its event and the refunded amount kept', async () => {
    const id = await paid();
    const refundId = await interruptedRefund(id, 'refund', 7_525n, true);

    t.clock.advance(INTERRUPTED_AFTER_MS + 1000);
    await runJobsDueBy(t);

    expect(await refundRow(refundId)).toMatchObject({ status: 'succeeded', amount: 7_525n, errorCode: null });
    expect((await refundRow(refundId)).providerReference).toMatch(/^sim_refund_/);
    expect(await payment(id)).toMatchObject({ paymentStatus: 'partially_refunded', refundedAmount: 7_525n });
    expect(await eventsOf(t, id)).toEqual(['transaction.successful', 'transaction.payment_refunded']);
    // Only the rest can still be refunded
    const over = await m.call('refund-payment', { transaction: { token: id }, amount: '124.76' });
    expect(over.status).toBe(422);
    const rest = await m.call('refund-payment', { transaction: { token: id }, amount: '124.75' });
    expect(rest.body.result.successful).toBe(true);
    expect(await payment(id)).toMatchObject({ paymentStatus: 'refunded', refundedAmount: 20_000n });
  });

  it('is released when the bank never got it: the payment\'s refunded amount is back and a full refund then works', async () => {
    const id = await paid();
    const refundId = await interruptedRefund(id, 'refund', 20_000n, false);
    // While reserved, nothing is left to refund
    expect((await m.call('refund-payment', { transaction: { token: id } })).status).not.toBe(200);

    await sweepLater();

    expect(await refundRow(refundId)).toMatchObject({ status: 'failed', errorCode: 'refund_not_received' });
    expect(await payment(id)).toMatchObject({ paymentStatus: 'paid', refundedAmount: 0n });
    expect(await eventsOf(t, id)).toEqual(['transaction.successful']);
    const full = await m.call('refund-payment', { transaction: { token: id } });
    expect(full.body.result.successful).toBe(true);
    expect(await payment(id)).toMatchObject({ paymentStatus: 'refunded', refundedAmount: 20_000n });
    expect(await eventsOf(t, id)).toEqual(['transaction.successful', 'transaction.payment_refunded']);
  });

  it('is released with the bank\'s code when the bank refused it', async () => {
    const id = await paid(CARDS.refundRejected);
    const refundId = await interruptedRefund(id, 'refund', 5_000n, true);

    await sweepLater();

    expect(await refundRow(refundId)).toMatchObject({ status: 'failed', errorCode: 'refund_rejected' });
    expect(await payment(id)).toMatchObject({ paymentStatus: 'paid', refundedAmount: 0n });
  });

  it('is left alone while its request may still be waiting for the bank', async () => {
    const id = await paid();
    const refundId = await interruptedRefund(id, 'refund', 1_000n, true);

    await sweepLater(INTERRUPTED_AFTER_MS - 1000);

    expect((await refundRow(refundId)).status).toBe('pending');
    expect((await payment(id)).refundedAmount).toBe(1_000n);
  });
});

describe('a cancel interrupted after the bank was asked', () => {
  it('is completed when the bank cancelled it, with transaction.payment_cancelled', async () => {
    const id = await paid();
    const cancelId = await interruptedRefund(id, 'cancel', 20_000n, true);

    await sweepLater();

    expect(await refundRow(cancelId)).toMatchObject({ status: 'succeeded', type: 'cancel' });
    expect(await payment(id)).toMatchObject({ paymentStatus: 'cancelled', refundedAmount: 20_000n });
    expect(await eventsOf(t, id)).toEqual(['transaction.successful', 'transaction.payment_cancelled']);
  });

  it('is released when the bank never got it, and the payment can be cancelled again', async () => {
    const id = await paid();
    const cancelId = await interruptedRefund(id, 'cancel', 20_000n, false);

    await sweepLater();

    expect(await refundRow(cancelId)).toMatchObject({ status: 'failed', errorCode: 'refund_not_received' });
    expect(await payment(id)).toMatchObject({ paymentStatus: 'paid', refundedAmount: 0n });
    const again = await m.call('cancel-payment', { transaction: { token: id } });
    expect(again.body.result.successful).toBe(true);
    expect(await payment(id)).toMatchObject({ paymentStatus: 'cancelled' });
  });
});

describe('a refund the bank does not answer, nor any inquiry about it', () => {
  it('stays pending and reserved while asked again at each sweep, then fails with refund_unconfirmed and is released after 6 hours', async () => {
    const id = await paid(SILENT_REFUND_CARD);
    const res = await m.call('refund-payment', { transaction: { token: id }, amount: '50.00' });
    expect(res.body.result).toMatchObject({ successful: false, error_code: 'provider_timeout_refund' });
    const [refund] = await db().refund.findMany({ where: { paymentId: id } });
    expect(refund).toMatchObject({ status: 'pending', amount: 5_000n });

    await sweepLater();
    await sweepLater(60 * 60 * 1000);
    expect((await refundRow(refund!.id)).status).toBe('pending');
    expect((await payment(id)).refundedAmount).toBe(5_000n);

    await sweepLater(REFUND_KEEP_ASKING_MS);
    expect(await refundRow(refund!.id)).toMatchObject({ status: 'failed', errorCode: 'refund_unconfirmed' });
    expect(await payment(id)).toMatchObject({ paymentStatus: 'paid', refundedAmount: 0n });
    expect(await eventsOf(t, id)).toEqual(['transaction.successful']);
  });
});

describe('two gateways sweeping at once', () => {
  it('finish each pending refund exactly once', async () => {
    const other = await startTestGateway({ databaseUrl: t.databaseUrl, clock: t.clock });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(await paid());
      const refunds = await Promise.all(ids.map((id) => interruptedRefund(id, 'refund', 20_000n, false)));
      t.clock.advance(INTERRUPTED_AFTER_MS + 1000);

      await Promise.all([recoverPendingRefunds(t.gateway.services), recoverPendingRefunds(other.gateway.services), recoverPendingRefunds(t.gateway.services)]);

      for (const [i, id] of ids.entries()) {
        // A gateway's own recover-interrupted job may sweep at the same time and still hold a
        // refund these sweeps skipped (SKIP LOCKED); it finishes it, once.
        await eventually(async () => (await refundRow(refunds[i]!)).status !== 'pending', `refund ${i} finished`, 10_000);
        expect((await refundRow(refunds[i]!)).status).toBe('failed');
        // Released once: a second release would make it negative
        expect((await payment(id)).refundedAmount).toBe(0n);
      }
    } finally {
      await other.stop();
    }
  });
});
