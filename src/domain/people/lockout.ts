// Failed sign-ins slow an attacker down per account and per address, through the same PostgreSQL
// windows as the API's 429s (table ratelimit.requests), so every gateway process counts alike.
// Only failures count. Past the limit a sign-in is refused before its password is checked (so
// the refusal says nothing about the password) until the window ends; a success clears the
// account's window. Limits and why: docs/decisions.md, "People and sessions".
import type { Db } from '../../db/client.ts';

export const ACCOUNT_FAILURES = 5;
export const ADDRESS_FAILURES = 30;
export const LOCK_WINDOW_MS = 15 * 60_000;

const accountKey = (email: string) => `signin-account:${email}`;
const addressKey = (address: string) => `signin-address:${address}`;

/** Seconds until the account or the address may try again, or 0 when both may now. */
export async function lockedFor(db: Db, email: string, address: string, nowMs: number): Promise<number> {
  const rows = await db.$queryRaw<Array<{ key: string; points: number; expire: bigint }>>`
    SELECT key, points, expire FROM ratelimit.requests WHERE key IN (${accountKey(email)}, ${addressKey(address)}) AND expire > ${nowMs}::bigint`;
  let until = 0;
  for (const r of rows) {
    const limit = r.key.startsWith('signin-account:') ? ACCOUNT_FAILURES : ADDRESS_FAILURES;
    if (r.points >= limit) until = Math.max(until, Number(r.expire));
  }
  return until === 0 ? 0 : Math.max(1, Math.ceil((until - nowMs) / 1000));
}

/** Counts one failure against the account and the address (a new window once the old one ended). */
export async function countFailure(db: Db, email: string, address: string, nowMs: number): Promise<void> {
  await db.$executeRaw`
    INSERT INTO ratelimit.requests AS r (key, points, expire)
    VALUES (${accountKey(email)}, 1, ${nowMs + LOCK_WINDOW_MS}::bigint), (${addressKey(address)}, 1, ${nowMs + LOCK_WINDOW_MS}::bigint)
    ON CONFLICT (key) DO UPDATE SET
      points = CASE WHEN r.expire <= ${nowMs}::bigint THEN 1 ELSE r.points + 1 END,
      expire = CASE WHEN r.expire <= ${nowMs}::bigint THEN EXCLUDED.expire ELSE r.expire END`;
}

export async function clearAccount(db: Db, email: string): Promise<void> {
  await db.$executeRaw`DELETE FROM ratelimit.requests WHERE key = ${accountKey(email)}`;
}
