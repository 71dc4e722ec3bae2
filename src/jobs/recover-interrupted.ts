// recover-interrupted: a recurring job (at start and every minute) that finishes what a stopped
// gateway or database left half done: payments still `started` with no answer from the bank, and
// refunds or cancels still `pending` with their amount reserved. Both ask the bank's status
// inquiry and settle as a normal answer would (interrupted.ts, interrupted-refunds.ts). Each row
// is claimed with FOR UPDATE SKIP LOCKED, so several processes running it at once are harmless.
import type { Agenda } from 'agenda';
import type { Services } from '../domain/services.ts';
import { recoverInterruptedPayments } from '../domain/payments/interrupted.ts';
import { recoverPendingRefunds } from '../domain/payments/interrupted-refunds.ts';

export const RECOVER_INTERRUPTED_JOB = 'recover-interrupted';
/** How often the sweep runs: interrupted work is found within a minute of becoming old enough. */
export const RECOVER_INTERRUPTED_EVERY_MS = 60_000;

export function defineRecoverInterrupted(agenda: Agenda, s: Services): void {
  agenda.define(RECOVER_INTERRUPTED_JOB, async () => {
    // Refunds are swept even when a payment failed to recover (the error is reported after).
    const payments = await recoverInterruptedPayments(s).then(() => null, (err: unknown) => err);
    await recoverPendingRefunds(s);
    if (payments) throw payments;
  }, { concurrency: 1, lockLifetime: 5 * 60_000 });
}
