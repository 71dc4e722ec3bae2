// Where the connectors' provider attempts (src/providers/recording.ts) are written: one INSERT per
// call, sent in the background. The payment path neither waits for it nor reads anything for it,
// and a failed write is logged and forgotten: a record never changes a payment's outcome.
//
// Not awaited by the caller for a second reason: a caller may hold the payment's row lock
// (FOR UPDATE) while it asks the bank (the interrupted-payment sweep does), and the insert's
// foreign key check waits for that lock; awaited inside the lock it would never finish.
import { Prisma } from '../generated/prisma/client.ts';
import type { Db } from '../db/client.ts';
import { executeRows } from '../db/raw.ts';
import type { AttemptSink, ProviderAttemptRecord } from '../providers/recording.ts';
import type { Clock } from './clock.ts';

export interface AttemptWriter extends AttemptSink {
  /** Resolves once every record handed over so far is written (or its failure logged). */
  drain(): Promise<void>;
}

export function attemptWriter(db: Db, clock: Clock, log: (msg: string, fields: Record<string, unknown>) => void): AttemptWriter {
  const pending = new Set<Promise<void>>();
  return {
    now: () => clock.now(),
    record(attempt) {
      const write = insertAttempt(db, attempt).then(
        () => undefined,
        (err: Error) => log('provider attempt not recorded', { error: err.message, operation: attempt.operation, paymentAccountId: attempt.paymentAccountId, idempotencyKey: attempt.idempotencyKey }),
      );
      pending.add(write);
      void write.finally(() => pending.delete(write));
    },
    async drain() {
      while (pending.size) await Promise.all(pending);
    },
  };
}

/** A refund's or cancel's attempt belongs to the refund's payment, found by the same statement. */
function insertAttempt(db: Db, a: ProviderAttemptRecord): Promise<number> {
  const paymentId = a.paymentId
    ? Prisma.sql`${a.paymentId}::uuid`
    : a.refundId
      ? Prisma.sql`(SELECT "paymentId" FROM "Refund" WHERE id = ${a.refundId}::uuid)`
      : Prisma.sql`NULL`;
  return executeRows(
    db,
    Prisma.sql`INSERT INTO "ProviderAttempt"
      (id, "workspaceId", "paymentId", "refundId", "paymentAccountId", provider, operation, "idempotencyKey",
       "startedAt", "durationMs", outcome, "providerCode", "providerMessage", "errorCode")
      VALUES (gen_random_uuid(), ${a.workspaceId}::uuid, ${paymentId}, ${a.refundId}::uuid, ${a.paymentAccountId}::uuid, ${a.provider},
       ${a.operation}::"ProviderOperation", ${a.idempotencyKey}, ${a.startedAt}, ${a.durationMs}, ${a.outcome}::"AttemptOutcome",
       ${a.providerCode}, ${a.providerMessage}, ${a.errorCode})`,
  );
}
