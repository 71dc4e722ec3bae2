// Reconciliation: a payment whose bank never answered (`unresolved`) is not left to a person.
// The reconcile-payment job asks the provider what became of the lost call, at growing intervals
// counted from the moment the payment became unresolved, and settles it with its owner's normal
// events once the bank knows; after the last try it fails. Until then no event is sent (contract:
// no notification for a payment whose provider did not respond).
import { retryKey } from '../routing/cascade.ts';
import { Prisma, type Payment, type PaymentStatus } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { ProviderTimeoutError } from '../../providers/types.ts';
import { message } from '../messages.ts';
import { refusal, settlePayment, type Final } from './settle.ts';
import { paymentConnector } from '../accounts.ts';
import type { Currency } from '../money.ts';
import { queryRows } from '../../db/raw.ts';

export const RECONCILE_PAYMENT_JOB = 'reconcile-payment';

const MINUTE = 60 * 1000;
/** When the provider is asked, after the payment became unresolved: 1 min, 5 min, 15 min, 1 h, 6 h. */
export const RECONCILE_TRIES_MS = [1, 5, 15, 60, 360].map((minutes) => minutes * MINUTE);

/** Called where a payment has just become unresolved; the key keeps one job per payment. */
export async function scheduleReconcile(s: Services, paymentId: string): Promise<void> {
  const firstTry = new Date(s.clock.now().getTime() + RECONCILE_TRIES_MS[0]!);
  await s.scheduler.schedule(RECONCILE_PAYMENT_JOB, firstTry, { paymentId }, `reconcile-payment:${paymentId}`);
}

/**
 * One run of the job: asks the bank when a try is due and settles on a final answer. Returns when
 * to run again, or null when the payment needs nothing more. Tries are counted from the clock, not
 * from runs, so a restart or a late run neither repeats nor skips the limit.
 */
export async function reconcilePayment(s: Services, paymentId: string): Promise<Date | null> {
  const p = await s.db.payment.findUnique({ where: { id: paymentId } });
  if (!p || p.status !== 'unresolved' || !p.completedAt) return null;
  const tries = RECONCILE_TRIES_MS.map((ms) => p.completedAt!.getTime() + ms);
  const now = s.clock.now().getTime();
  if (now < tries[0]!) return new Date(tries[0]!);
  const final = await askBankPatiently(s, p);
  if (final) {
    await settleIfStill(s, p.id, 'unresolved', final);
    return null;
  }
  const next = tries.find((at) => at > now);
  if (next !== undefined) return new Date(next);
  await settleIfStill(s, p.id, 'unresolved', { status: 'failed', errorCode: 'payment_unconfirmed', errorMessage: message('payment_unconfirmed') });
  return null;
}

/** A status query that did not answer either is no answer yet: the next try asks again. */
async function askBankPatiently(s: Services, p: Payment): Promise<Final | null> {
  try {
    return await askBank(s, p);
  } catch (err) {
    if (err instanceof ProviderTimeoutError) return null;
    throw err;
  }
}

/**
 * What the bank reports about the payment's call whose answer was lost, as a settlement; null
 * while it has no final outcome. Throws ProviderTimeoutError when the status query is not answered.
 */
export async function askBank(s: Services, p: Payment): Promise<Final | null> {
  const connector = await paymentConnector(s, p);
  const charged = { amount: p.chargedAmount ?? p.amount, currency: (p.chargedCurrency ?? p.currency) as Currency };
  const answer = await connector.paymentStatus({ idempotencyKey: lostCallKey(p), providerReference: p.providerReference, ...charged });
  if (answer.status === 'succeeded') return { status: 'successful', providerReference: answer.providerReference };
  if (answer.status === 'declined') return refusal(answer);
  return null;
}

/**
 * The idempotency key the lost call was made with (attempt.ts and three-ds.ts make them): a
 * regular payment's charge, a 3D payment's completion once the bank started 3D, else its start;
 * of the payment's last try when a cascade moved it to another account.
 */
function lostCallKey(p: Payment): string {
  if (p.securityType === 'non_secure') return retryKey(`${p.id}:charge`, p.attemptNumber);
  return p.providerReference ? `${p.id}:complete` : retryKey(`${p.id}:authorise`, p.attemptNumber);
}

/**
 * Settles a payment only while it is still in `expected`, under the row lock, so a job and a late
 * answer (3D page, bank) racing each other settle it once, with one event. A 3D payment's card
 * kept at the start (card.should_save) is saved by the settlement when it succeeds. Null when
 * another got there first.
 */
export async function settleIfStill(s: Services, paymentId: string, expected: PaymentStatus, final: Final): Promise<Payment | null> {
  const at = s.clock.now();
  return s.db.$transaction(async (tx) => {
    const [row] = await queryRows<{ status: PaymentStatus }>(tx, Prisma.sql`SELECT status FROM "Payment" WHERE id = ${paymentId}::uuid FOR UPDATE`);
    if (row?.status !== expected) return null;
    return settlePayment(tx, s, paymentId, final, at);
  });
}
