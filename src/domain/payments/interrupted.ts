// Payments a crash left `started`: the gateway (or its database) stopped between writing the
// payment row and recording the bank's answer, so no request will ever settle them, and the bank
// may have charged the card. The recover-interrupted job finds them and asks the bank, as
// reconciliation does for `unresolved` payments (reconcile.ts), and settles them through the same
// settlement, so the owner's events and order, link or subscription state follow as for any answer.
//
// A 3D payment waiting on its page is not one of them: its page columns (`expiresAt`) are written
// after its 3D timer is scheduled (attempt.ts), so the timer owns it until it expires or is
// abandoned. A payment without them whose bank call may still be in flight is left alone until
// it is older than INTERRUPTED_AFTER_MS, far beyond any bank call.
import { Prisma, type Payment } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import { TX_TIMEOUT_MS } from '../../db/client.ts';
import { queryRows } from '../../db/raw.ts';
import { ProviderTimeoutError } from '../../providers/types.ts';
import type { Services } from '../services.ts';
import { message } from '../messages.ts';
import { askBank, scheduleReconcile } from './reconcile.ts';
import { settlePayment, type Final } from './settle.ts';

const MINUTE = 60 * 1000;
/** A `started` payment without a 3D page this old has lost its request (bank calls end within 2 minutes). */
export const INTERRUPTED_AFTER_MS = 5 * MINUTE;
/** Until a payment is this old an unanswered status inquiry is asked again at the next sweep; then it is `unresolved`. */
export const KEEP_ASKING_MS = 30 * MINUTE;
/** The most payments one sweep asks about: a run stays short, the next one goes on. */
export const SWEEP_BATCH = 100;

/**
 * One sweep: settles every interrupted payment the bank has an answer for, and reports how many
 * it settled. Each payment is claimed with FOR UPDATE SKIP LOCKED in its own transaction, held
 * while the bank is asked (a status inquiry, not a money move), so two gateways sweeping at once
 * never ask about or settle the same payment twice, and a sweeper that dies releases its claim.
 */
export function recoverInterruptedPayments(s: Services): Promise<number> {
  return sweep(s, {
    what: 'interrupted payment',
    oldest: (cutoff, tried) => Prisma.sql`SELECT id FROM "Payment"
                    WHERE status = 'started' AND "expiresAt" IS NULL AND "createdAt" < ${cutoff}
                      AND NOT (id = ANY(${tried}::uuid[]))
                    ORDER BY "createdAt" LIMIT 1 FOR UPDATE SKIP LOCKED`,
    finish: (tx, id, now) => recoverPayment(s, tx, id, now),
  });
}

/** What a sweep does with the rows it finds. */
export interface SweepKind {
  /** In errors: "3 interrupted payment(s) could not be recovered". */
  what: string;
  /** The oldest row older than `cutoff` and not in `tried`, locked FOR UPDATE SKIP LOCKED: `SELECT id …`. */
  oldest(cutoff: Date, tried: string[]): Prisma.Sql;
  /** Asks the bank about the claimed row and records the answer, in the claim's transaction. */
  finish(tx: Tx, id: string, now: Date): Promise<'finished' | 'waiting'>;
}

/**
 * Claims one row after another, each in its own transaction held while the bank is asked, until
 * no row is left or SWEEP_BATCH were tried. One row's failure does not stop the others; the sweep
 * then fails with all of them. Returns how many rows were finished.
 */
export async function sweep(s: Services, kind: SweepKind): Promise<number> {
  const tried: string[] = [];
  const failures: unknown[] = [];
  let finished = 0;
  while (tried.length < SWEEP_BATCH) {
    const claimed = tried.length;
    const outcome = await claimAndFinish(s, kind, tried).catch((err: unknown) => {
      failures.push(err);
      // Failed before claiming a row (the database itself): the next run tries again.
      return tried.length === claimed ? null : ('failed' as const);
    });
    if (outcome === null) break;
    if (outcome === 'finished') finished++;
  }
  if (failures.length) {
    const first = failures[0] instanceof Error ? failures[0].message : String(failures[0]);
    throw new AggregateError(failures, `${failures.length} ${kind.what}(s) could not be recovered, first: ${first}`);
  }
  return finished;
}

/** Claims the oldest row of `kind` not tried in this sweep (added to `tried`) and finishes it; null when none is left. */
function claimAndFinish(s: Services, kind: SweepKind, tried: string[]): Promise<'finished' | 'waiting' | null> {
  const now = s.clock.now();
  const cutoff = new Date(now.getTime() - INTERRUPTED_AFTER_MS);
  return s.db.$transaction(
    async (tx) => {
      const [row] = await queryRows<{ id: string }>(tx, kind.oldest(cutoff, tried));
      if (!row) return null;
      tried.push(row.id);
      return kind.finish(tx, row.id, now);
    },
    { maxWait: TX_TIMEOUT_MS, timeout: TX_TIMEOUT_MS },
  );
}

/** Settles a claimed interrupted payment when the bank knows what became of it. */
async function recoverPayment(s: Services, tx: Tx, id: string, now: Date): Promise<'finished' | 'waiting'> {
  const payment = await tx.payment.findUniqueOrThrow({ where: { id } });
  const final = await bankAnswer(s, payment, now);
  if (!final) return 'waiting';
  // Scheduled before the commit: a job that finds the payment still `started` does nothing.
  if (final.status === 'unresolved') await scheduleReconcile(s, payment.id);
  await settlePayment(tx, s, payment.id, final, now);
  return 'finished';
}

/**
 * What the interrupted payment becomes: the bank's answer; failed when the bank never received
 * the call (nothing was charged); null while an unanswered inquiry may be asked again; then
 * `unresolved`, handed to reconciliation's bounded tries.
 */
async function bankAnswer(s: Services, p: Payment, now: Date): Promise<Final | null> {
  try {
    return (await askBank(s, p)) ?? { status: 'failed', errorCode: 'payment_not_received', errorMessage: message('payment_not_received') };
  } catch (err) {
    if (!(err instanceof ProviderTimeoutError)) throw err;
    if (now.getTime() - p.createdAt.getTime() < KEEP_ASKING_MS) return null;
    return { status: 'unresolved', errorCode: 'provider_timeout', errorMessage: message('provider_timeout') };
  }
}
