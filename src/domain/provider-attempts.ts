// Where the connectors' provider attempts (src/providers/recording.ts) are written: in the
// background, gathered for a few milliseconds into one multi-row INSERT. The payment path neither
// waits for it nor reads anything for it, and a failed write is logged and forgotten: a record
// never changes a payment's outcome. Gathering keeps the cost of recording off the payment path:
// under load many calls share one statement (measured in docs/performance.md).
//
// The table keeps plain ids, without foreign keys: a foreign key check takes a KEY SHARE lock on
// the payment and on its account for every row, which slowed payments (docs/performance.md), and
// it would wait for a payment's row lock held while the bank is asked (the interrupted-payment
// sweep does that).
import { Prisma } from '../generated/prisma/client.ts';
import type { Db } from '../db/client.ts';
import { executeRows } from '../db/raw.ts';
import type { AttemptSink, ProviderAttemptRecord } from '../providers/recording.ts';
import type { Clock } from './clock.ts';

/** How long records wait for company before they are written, and how many one statement takes at most. */
const GATHER_MS = 20;
const MAX_ROWS = 200;

export interface AttemptWriter extends AttemptSink {
  /** Resolves once the records handed over so far are written (or their failure logged). */
  flushed(): Promise<void>;
  /** As flushed, and also waits for whatever is written meanwhile: nothing is left in flight (a stop). */
  drain(): Promise<void>;
}

export function attemptWriter(db: Db, clock: Clock, log: (msg: string, fields: Record<string, unknown>) => void): AttemptWriter {
  let gathered: ProviderAttemptRecord[] = [];
  let timer: NodeJS.Timeout | null = null;
  const writing = new Set<Promise<void>>();
  const flush = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    const batch = gathered;
    gathered = [];
    if (batch.length === 0) return;
    const write = insertAttempts(db, batch).then(
      () => undefined,
      // One bad row must not cost the others theirs: each is then tried alone.
      () => Promise.all(batch.map((a) => insertAttempts(db, [a]).then(() => undefined, (err: Error) => log('provider attempt not recorded', { error: err.message, operation: a.operation, paymentAccountId: a.paymentAccountId, idempotencyKey: a.idempotencyKey })))).then(() => undefined),
    );
    writing.add(write);
    void write.finally(() => writing.delete(write));
  };
  return {
    now: () => clock.now(),
    record(attempt) {
      gathered.push(attempt);
      if (gathered.length >= MAX_ROWS) flush();
      else timer ??= setTimeout(flush, GATHER_MS);
    },
    async flushed() {
      flush();
      await Promise.all([...writing]);
    },
    async drain() {
      flush();
      while (writing.size) await Promise.all(writing);
    },
  };
}

/** A refund's or cancel's attempt belongs to the refund's payment, found by the same statement. */
function attemptRow(a: ProviderAttemptRecord): Prisma.Sql {
  const paymentId = a.paymentId
    ? Prisma.sql`${a.paymentId}::uuid`
    : a.refundId
      ? Prisma.sql`(SELECT "paymentId" FROM "Refund" WHERE id = ${a.refundId}::uuid)`
      : Prisma.sql`NULL::uuid`;
  return Prisma.sql`(gen_random_uuid(), ${a.workspaceId}::uuid, ${paymentId}, ${a.refundId}::uuid, ${a.paymentAccountId}::uuid, ${a.provider},
       ${a.operation}::"ProviderOperation", ${a.idempotencyKey}, ${a.startedAt}, ${a.durationMs}, ${a.outcome}::"AttemptOutcome",
       ${a.providerCode}, ${a.providerMessage}, ${a.errorCode})`;
}

function insertAttempts(db: Db, batch: readonly ProviderAttemptRecord[]): Promise<number> {
  return executeRows(
    db,
    Prisma.sql`INSERT INTO "ProviderAttempt"
      (id, "workspaceId", "paymentId", "refundId", "paymentAccountId", provider, operation, "idempotencyKey",
       "startedAt", "durationMs", outcome, "providerCode", "providerMessage", "errorCode")
      VALUES ${Prisma.join(batch.map(attemptRow))}`,
  );
}
