// Refunds and cancels left `pending`: their amount was reserved on the payment (refunds.ts), then
// the bank did not answer, or the gateway (or its database) stopped before recording its answer.
// No request will finish them, and the reservation would hold that amount for good. The
// recover-interrupted job asks the bank about each (its status inquiry, by the gateway's own
// refund id) and records the answer as the request would have: done, with the owner's event, or
// refused, the amount released. A refund the bank never received is released too.
import { Prisma, type Payment, type Refund } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import { ProviderTimeoutError, type OtherRefund, type RefundResult } from '../../providers/types.ts';
import type { Services } from '../services.ts';
import { message } from '../messages.ts';
import { recordRefundAnswer } from './refunds.ts';
import { paymentConnector } from '../accounts.ts';
import { chargedOf } from './view.ts';
import { sweep } from './interrupted.ts';
import { RECONCILE_TRIES_MS } from './reconcile.ts';

/**
 * Until a refund is this old an unanswered inquiry is asked again at the next sweep; then it fails
 * (`refund_unconfirmed`) and its amount is released, as a payment the bank never confirms fails
 * after reconciliation's last try (6 hours).
 */
export const REFUND_KEEP_ASKING_MS = RECONCILE_TRIES_MS[RECONCILE_TRIES_MS.length - 1]!;

/**
 * One sweep over pending refunds and cancels older than INTERRUPTED_AFTER_MS (a request still
 * asking the bank is younger), each claimed with FOR UPDATE SKIP LOCKED while the bank is asked:
 * two gateways never record one twice. Reports how many it finished.
 */
export function recoverPendingRefunds(s: Services): Promise<number> {
  return sweep(s, {
    what: 'pending refund',
    oldest: (cutoff, tried) => Prisma.sql`SELECT id FROM "Refund"
                    WHERE status = 'pending' AND "createdAt" < ${cutoff} AND NOT (id = ANY(${tried}::uuid[]))
                    ORDER BY "createdAt" LIMIT 1 FOR UPDATE SKIP LOCKED`,
    finish: (tx, id, now) => recoverRefund(s, tx, id, now),
  });
}

/** Records the bank's answer about a claimed pending refund or cancel, when it has one. */
async function recoverRefund(s: Services, tx: Tx, id: string, now: Date): Promise<'finished' | 'waiting'> {
  const refund = await tx.refund.findUniqueOrThrow({ where: { id } });
  const payment = await tx.payment.findUniqueOrThrow({ where: { id: refund.paymentId } });
  const answer = await bankAnswer(s, tx, payment, refund, now);
  if (!answer) return 'waiting';
  await recordRefundAnswer(tx, s, payment, refund, answer, now);
  return 'finished';
}

/** The bank's answer about the refund as the request would have got it; null to ask again later. */
async function bankAnswer(s: Services, tx: Tx, payment: Payment, refund: Refund, now: Date): Promise<RefundResult | null> {
  const provider = await paymentConnector(s, payment);
  try {
    // The key the request used (refunds.ts): the gateway's own refund id; banks that keep no id
    // of ours count the order's credits with the amounts of the payment's other refunds.
    const res = await provider.refundStatus({
      idempotencyKey: `${refund.type}:${refund.id}`,
      providerReference: payment.providerReference ?? '',
      amount: refund.amount,
      currency: chargedOf(payment).currency,
      otherRefunds: await otherRefunds(tx, refund),
    });
    if (res.status !== 'unknown') return res;
    return { status: 'declined', code: 'refund_not_received', message: message('refund_not_received') };
  } catch (err) {
    if (!(err instanceof ProviderTimeoutError)) throw err;
    if (now.getTime() - refund.createdAt.getTime() < REFUND_KEEP_ASKING_MS) return null;
    return { status: 'declined', code: 'refund_unconfirmed', message: message('refund_unconfirmed') };
  }
}

/**
 * The payment's other refunds (cancels are not credits) as the bank may list them: answered ones
 * with their answer, and those still pending that were made before this one (a bank's unexplained
 * credit of their amount is theirs first, so two sweeps never both take one credit).
 */
async function otherRefunds(tx: Tx, refund: Refund): Promise<OtherRefund[]> {
  const rows = await tx.refund.findMany({
    where: { paymentId: refund.paymentId, type: 'refund', id: { not: refund.id } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const earlier = (r: Refund) => r.createdAt < refund.createdAt || (r.createdAt.getTime() === refund.createdAt.getTime() && r.id < refund.id);
  return rows
    .filter((r) => r.status !== 'pending' || earlier(r))
    .map((r) => ({ amount: r.amount, status: r.status === 'succeeded' ? 'succeeded' : r.status === 'failed' ? 'declined' : 'pending' }));
}
