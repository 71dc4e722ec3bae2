// Per-workspace request limits (429), shared by every gateway process through PostgreSQL
// (rate-limiter-flexible's Postgres store, table ratelimit.requests): every operation of a
// workspace counts against RATE_LIMIT_PER_SECOND, and the payment-link operations also against
// RATE_LIMIT_LINKS_PER_MINUTE (spec: 429 on the link endpoints). A workspace may have its own
// limits (CLI `workspace limits`); 0 turns a limit off. A refused request has written nothing.
import pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Workspace } from '../generated/prisma/client.ts';
import { logConnectionLoss, type Logger } from '../logger.ts';

export interface RateLimitSettings {
  perSecond: number;
  linksPerMinute: number;
}

export interface RateLimits {
  /** Null when the request may go on, else the seconds to wait. */
  check(workspace: Workspace, operation: string): Promise<number | null>;
  close(): Promise<void>;
}

const LINK_OPERATIONS = new Set(['create-payment-link', 'update-payment-link', 'retrieve-payment-links', 'retrieve-link-payments']);

export function createRateLimits(databaseUrl: string, defaults: RateLimitSettings, logger: Logger): RateLimits {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  pool.on('error', (err) => logConnectionLoss(logger, 'rate limit pool error', err));
  // One limiter per (window, points): workspaces with their own limits get their own.
  const limiters = new Map<string, RateLimiterPostgres>();
  const limiter = (name: string, points: number, duration: number) => {
    const key = `${name}:${points}:${duration}`;
    let found = limiters.get(key);
    if (!found) {
      found = new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        schemaName: 'ratelimit',
        tableName: 'requests',
        tableCreated: true,
        keyPrefix: name,
        points,
        duration,
        // Once a key is over its limit, answer from memory until its window ends: a flood of
        // refused requests costs no database round trip.
        inMemoryBlockOnConsumed: points,
        inMemoryBlockDuration: duration,
      });
      limiters.set(key, found);
    }
    return found;
  };
  const consume = async (name: string, points: number, duration: number, workspaceId: string): Promise<number | null> => {
    if (points <= 0) return null;
    try {
      await limiter(name, points, duration).consume(workspaceId);
      return null;
    } catch (err) {
      if (err instanceof RateLimiterRes) return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      throw err;
    }
  };
  return {
    async check(workspace, operation) {
      const perSecond = workspace.rateLimitPerSecond ?? defaults.perSecond;
      const linksPerMinute = workspace.rateLimitLinksPerMinute ?? defaults.linksPerMinute;
      const wait = await consume('all', perSecond, 1, workspace.id);
      if (wait !== null || !LINK_OPERATIONS.has(operation)) return wait;
      return consume('links', linksPerMinute, 60, workspace.id);
    },
    close: () => pool.end(),
  };
}
