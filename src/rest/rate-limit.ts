// Per-workspace request limits (429), shared by every gateway process through PostgreSQL: every
// operation of a workspace counts against RATE_LIMIT_PER_SECOND, and the payment-link operations
// also against RATE_LIMIT_LINKS_PER_MINUTE (spec: 429 on the link endpoints). A workspace may
// have its own limits (CLI `workspace limits`); 0 turns a limit off. A refused request has
// written nothing.
//
// Fixed windows in table ratelimit.requests (key `all:<workspace>` / `links:<workspace>`, the
// layout rate-limiter-flexible used before): a request adds one to its window's count, or starts
// a new window once the old one has ended, and is refused past the limit until the window ends.
// The counting is a part of the request's admission statement (admission.ts) instead of a
// statement of its own, so that a call pays one round trip for its key, workspace and limits.
import { Prisma } from '../generated/prisma/client.ts';

export interface RateLimitSettings {
  perSecond: number;
  linksPerMinute: number;
}

const LINK_OPERATIONS = new Set(['create-payment-link', 'update-payment-link', 'retrieve-payment-links', 'retrieve-link-payments']);

/**
 * Common table expressions `per_second` and `per_minute` (the links window, counted only while
 * the per-second window lets the request through) over the workspace rows of CTE `ws`; each
 * returns the window's `points`, `expire` (epoch ms) and `refused`. An inactive workspace counts
 * nothing: it gets a 403, not a 429.
 */
export function countingCtes(operation: string, defaults: RateLimitSettings, nowMs: number): Prisma.Sql {
  const perSecond = Prisma.sql`COALESCE(ws."rateLimitPerSecond", ${defaults.perSecond}::int)`;
  const perMinute = Prisma.sql`COALESCE(ws."rateLimitLinksPerMinute", ${defaults.linksPerMinute}::int)`;
  const linkOperation = LINK_OPERATIONS.has(operation);
  return Prisma.sql`
    per_second AS (${upsertWindow('all', 1_000, nowMs, Prisma.sql`${perSecond} > 0`, perSecond)}),
    per_minute AS (${upsertWindow('links', 60_000, nowMs, Prisma.sql`${linkOperation} AND ${perMinute} > 0 AND NOT EXISTS (SELECT 1 FROM per_second WHERE refused)`, perMinute)})`;
}

function upsertWindow(name: string, durationMs: number, nowMs: number, when: Prisma.Sql, limit: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO ratelimit.requests AS r (key, points, expire)
    SELECT ${`${name}:`} || ws.id::text, 1, ${nowMs + durationMs}::bigint FROM ws WHERE ws.active AND ${when}
    ON CONFLICT (key) DO UPDATE SET
      points = CASE WHEN r.expire <= ${nowMs}::bigint THEN 1 ELSE r.points + 1 END,
      expire = CASE WHEN r.expire <= ${nowMs}::bigint THEN EXCLUDED.expire ELSE r.expire END
    RETURNING points, expire, points > (SELECT ${limit} FROM ws) AS refused`;
}

/** Whole seconds until a refused window ends, at least 1 (the Retry-After header). */
export function retryAfterSeconds(expireMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((expireMs - nowMs) / 1000));
}
