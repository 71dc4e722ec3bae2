// Per-workspace request limits (429), shared by every gateway process through PostgreSQL: every
// operation of a workspace counts against RATE_LIMIT_PER_SECOND, and the payment-link operations
// also against RATE_LIMIT_LINKS_PER_MINUTE (contract: 429 on the link endpoints). A workspace may
// have its own limits (CLI `workspace limits`); 0 turns a limit off. A refused request has
// written nothing.
//
// Fixed windows in table ratelimit.requests (key `all:<workspace>` / `links:<workspace>`, the
// layout rate-limiter-flexible used before): a request adds one to its window's count, or starts
// a new window once the old one has ended, and is refused past the limit until the window ends.
// The counting is a part of the request's admission statement (admission.ts) instead of a
// statement of its own, so that a call pays one round trip for its key, workspace and limits; a
// process that remembers admissions claims several points of the per-second window at once and
// admits that many calls without a statement (admission-memory.ts).
import { Prisma } from '../generated/prisma/client.ts';

export interface RateLimitSettings {
  perSecond: number;
  linksPerMinute: number;
}

const LINK_OPERATIONS = new Set(['create-payment-link', 'update-payment-link', 'retrieve-payment-links', 'retrieve-link-payments']);

/** The link operations count every call in the database (their per-minute window); no lease. */
export const isLinkOperation = (operation: string): boolean => LINK_OPERATIONS.has(operation);

/** The most points of a per-second window one statement claims for a process (admission-memory.ts). */
export const MAX_LEASE = 50;

/**
 * Common table expressions `per_second` and `per_minute` (the links window, counted only while
 * the per-second window lets the request through) over the workspace rows of CTE `ws`; each
 * returns the window's `points`, `expire` (epoch ms), `refused` and `granted` (points this call
 * may use, none when refused). An inactive workspace counts nothing: it gets a 403, not a 429.
 * With `lease`, the per-second window is asked for a twentieth of its limit (1 to MAX_LEASE)
 * instead of one point; the links window always counts one.
 */
export function countingCtes(operation: string, defaults: RateLimitSettings, nowMs: number, lease: boolean): Prisma.Sql {
  const perSecond = Prisma.sql`COALESCE(ws."rateLimitPerSecond", ${defaults.perSecond}::int)`;
  const perMinute = Prisma.sql`COALESCE(ws."rateLimitLinksPerMinute", ${defaults.linksPerMinute}::int)`;
  const claim = lease ? Prisma.sql`LEAST(${MAX_LEASE}::int, GREATEST(1, ${perSecond} / 20))` : Prisma.sql`1`;
  const linkOperation = isLinkOperation(operation);
  return Prisma.sql`
    per_second AS (${upsertWindow('all', 1_000, nowMs, Prisma.sql`${perSecond} > 0`, perSecond, claim)}),
    per_minute AS (${upsertWindow('links', 60_000, nowMs, Prisma.sql`${linkOperation} AND ${perMinute} > 0 AND NOT EXISTS (SELECT 1 FROM per_second WHERE refused)`, perMinute, Prisma.sql`1`)})`;
}

/** A window adds `claim` points (or starts again with them once ended); granted: what fitted under `limit`. */
function upsertWindow(name: string, durationMs: number, nowMs: number, when: Prisma.Sql, limit: Prisma.Sql, claim: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO ratelimit.requests AS r (key, points, expire)
    SELECT ${`${name}:`} || ws.id::text, ${claim}, ${nowMs + durationMs}::bigint FROM ws WHERE ws.active AND ${when}
    ON CONFLICT (key) DO UPDATE SET
      points = CASE WHEN r.expire <= ${nowMs}::bigint THEN EXCLUDED.points ELSE r.points + EXCLUDED.points END,
      expire = CASE WHEN r.expire <= ${nowMs}::bigint THEN EXCLUDED.expire ELSE r.expire END
    RETURNING points, expire,
      points - (SELECT ${claim} FROM ws) >= (SELECT ${limit} FROM ws) AS refused,
      GREATEST(0, LEAST((SELECT ${claim} FROM ws), (SELECT ${limit} FROM ws) - (points - (SELECT ${claim} FROM ws)))) AS granted`;
}

/** Whole seconds until a refused window ends, at least 1 (the Retry-After header). */
export function retryAfterSeconds(expireMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((expireMs - nowMs) / 1000));
}
