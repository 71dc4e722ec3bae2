// The database cannot take work now: saturated (every connection busy for longer than a
// transaction may wait to start, or PostgreSQL refusing new connections) or unavailable (down,
// restarting, unreachable: db/unavailable.ts). Requests that meet it before anything was written
// answer 503 with Retry-After ("nothing was done"); work after the bank answered must not meet
// it at all, so it waits until the database takes it (`commitAfterBank`).
import { TX_TIMEOUT_MS, withBoundedConnectionWait, type Db, type Tx } from './client.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

/** Saturated or unavailable: the caller answers 503 with Retry-After, or waits and tries again. */
export function isDatabaseBusy(err: unknown): boolean {
  return isDatabaseSaturated(err) || isDatabaseUnavailable(err);
}

function isDatabaseSaturated(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; cause?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === 'P2028' || e.code === '53300') return true;
  if (typeof e.message === 'string' && /Unable to start a transaction in the given time|too many clients already|timeout exceeded when trying to connect/.test(e.message)) return true;
  return e.cause !== undefined && e.cause !== err && isDatabaseSaturated(e.cause);
}

/**
 * A transaction that records what a bank already did (a charge, a refund, a stored card): it may
 * not fail because the database is busy, or the caller would be told nothing happened. It waits
 * for a connection as long as it takes, retrying a busy start with a growing pause.
 */
export async function commitAfterBank<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return untilWritten(() => db.$transaction(fn, { maxWait: TX_TIMEOUT_MS, timeout: TX_TIMEOUT_MS }));
}

/** The same for a write that is one statement sent on its own (atomic without a transaction). */
export async function untilWritten<T>(write: () => Promise<T>): Promise<T> {
  for (let pause = 50; ; pause = Math.min(pause * 2, 2_000)) {
    try {
      return await write();
    } catch (err) {
      if (!isDatabaseBusy(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/**
 * A read made for the answer once the bank has answered (the payment as it now stands): the work
 * is done, so the request must not answer 503 "nothing was done" because the database went away
 * in between (a failover); it waits for the database like the writes before it.
 */
export function readAfterBank<T>(read: () => Promise<T>): Promise<T> {
  return untilWritten(read);
}

/**
 * A request's first write, one statement sent on its own, before anything else was done: like a
 * transaction's start it waits at most maxWait for a connection, then fails as busy (503, "nothing
 * was done"), which is true since the statement was never sent. Other statements outside a
 * transaction wait as long as it takes: work after a bank's answer must not give up.
 */
export function refusedWhenBusy<T>(db: Db, write: () => Promise<T>): Promise<T> {
  return withBoundedConnectionWait(db, write);
}
