// The Prisma client on the pg driver adapter (no native query engine).
import { PrismaPg } from '@prisma/adapter-pg';
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client.ts';

export type Db = PrismaClient;
/** A client or an interactive transaction client: domain reads and writes accept either. */
export type Tx = Prisma.TransactionClient | PrismaClient;

/** How long one transaction may run, row-lock waits included. */
export const TX_TIMEOUT_MS = 30_000;

/**
 * Query shapes the client keeps compiled. Prisma 7 caches query plans by shape (values are
 * parameters), so a request no longer pays the WASM query compiler on every call. 1,000 is
 * Prisma's default, stated so that a change of default cannot quietly bring the per-call compile
 * back.
 */
const QUERY_PLAN_CACHE_SIZE = 1_000;

export interface DbOptions {
  max?: number;
  /**
   * How long a request's transaction, or its first write sent on its own (busy.ts, refusedWhenBusy),
   * may wait for a connection before it fails as busy and the request answers 503.
   */
  maxWait?: number;
  /**
   * Called with every SQL statement the client sends (transaction control included). Off unless
   * given: the statement-budget tests count with it, and a running gateway should not pay for it.
   */
  onQuery?: (sql: string) => void;
  /**
   * Raw statements sent from the root client go straight to its pool (raw.ts); on unless false.
   * Off when tracing is on, so that every statement of a request shows as Prisma's spans.
   */
  direct?: boolean;
  /**
   * A statement unanswered after this long fails ("Query read timeout", the database unavailable:
   * 503) and its connection is dropped; unset: no limit (the CLI's long reads). TCP keepalive is
   * on either way, so an idle connection to a machine that vanished is found too.
   */
  queryTimeoutMs?: number;
}

export function createDb(connectionString: string, opts: DbOptions = {}): Db {
  // Our own pool (ended by $disconnect) so /metrics can report its use.
  const maxWait = opts.maxWait ?? 10_000;
  const pool = new BoundedWaitPool({ connectionString, max: opts.max ?? 10, keepAlive: true, keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS, ...(opts.queryTimeoutMs ? { query_timeout: opts.queryTimeoutMs } : {}) });
  keepClientErrorsHandled(pool);
  dropClientsWithOutstandingStatements(pool);
  const statementName = preparedStatementName();
  const db = new PrismaClient({
    adapter: new PrismaPg(pool, { disposeExternalPool: true, statementNameGenerator: statementName }),
    // Waiting for a connection or a row lock is normal under load; only a truly saturated
    // database may fail a request (src/db/busy.ts), never a few hundred requests queueing.
    transactionOptions: { maxWait, timeout: TX_TIMEOUT_MS },
    queryPlanCacheMaxSize: QUERY_PLAN_CACHE_SIZE,
    // Any other format makes the client capture a stack trace (new Error) on every call, only to
    // point at the call site if that call fails; our errors are logged with their own stacks.
    errorFormat: 'minimal',
    ...(opts.onQuery ? { log: [{ emit: 'event' as const, level: 'query' as const }] } : {}),
  });
  const onQuery = opts.onQuery;
  // The log option widens the client's type per call site; the event is the same either way.
  if (onQuery) (db as unknown as PrismaClient<'query'>).$on('query', (e) => onQuery(e.query));
  backings.set(db, { pool, maxWait, statementName, onQuery, direct: opts.direct !== false });
  return db;
}

/** The wait for a connection that statements sent from within `withBoundedConnectionWait` accept. */
const connectionWait = new AsyncLocalStorage<number>();

/**
 * A pool whose callers may bound their wait for a connection: pg's connectionTimeoutMillis, but
 * per call and only while the pool is full (a new connection is never cut off half-open).
 * pg-pool reads the option synchronously in connect(), which query() calls synchronously too.
 */
class BoundedWaitPool extends pg.Pool {
  override connect(...args: unknown[]): never {
    const wait = connectionWait.getStore();
    const connect = super.connect as (...a: unknown[]) => never;
    if (wait === undefined || this.totalCount < (this.options.max ?? 10)) return connect.apply(this, args);
    const saved = this.options.connectionTimeoutMillis;
    this.options.connectionTimeoutMillis = wait;
    try {
      return connect.apply(this, args);
    } finally {
      this.options.connectionTimeoutMillis = saved;
    }
  }
}


/**
 * pg-pool listens for a client's errors only while the client is idle in the pool. A connection
 * lost while it is checked out between two statements (inside a transaction, when a failover
 * kills the primary) makes pg emit 'error' with no listener, and that ends the process. So every
 * client keeps a listener for its whole life: the loss shows as the next statement's error (the
 * database unavailable: 503), and the pool drops the client when it is released.
 */
export function keepClientErrorsHandled(pool: pg.Pool): void {
  pool.on('connect', (client) => client.on('error', () => {}));
}

/** Seconds of silence on an idle connection before TCP asks whether the other end is still there. */
const KEEPALIVE_IDLE_MS = 10_000;

/**
 * A connection released while one of its statements is still unanswered (it timed out: the server
 * went silent) must not serve anyone else: the next statement would queue behind the stuck one and
 * time out too. pg-pool drops a client released with an error, but Prisma's adapter ends a
 * transaction with a plain release() whatever happened in it, so the pool is told here, before it
 * decides (pg-pool reads `_queryable` for that, its own check of a broken client).
 */
function dropClientsWithOutstandingStatements(pool: pg.Pool): void {
  pool.on('release', (_err: Error | undefined, client: pg.PoolClient) => {
    const c = client as pg.PoolClient & { _activeQuery?: unknown; _queryQueue?: unknown[]; _queryable?: boolean; connection?: { stream?: { destroy(): void } } };
    if (!c._activeQuery && !c._queryQueue?.length) return;
    c._queryable = false;
    c.connection?.stream?.destroy();
  });
}

/** Runs `fn` with the connection waits of its statements bounded by the client's maxWait (busy.ts). */
export function withBoundedConnectionWait<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  return connectionWait.run(backings.get(db)?.maxWait ?? 10_000, fn);
}

const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i;

/**
 * Named statements: each connection parses and plans a statement text once and then only binds
 * and executes it, instead of PostgreSQL parsing and planning every statement again. Prisma's
 * texts come from its cached query plans, so they are few; past `max` distinct texts (say, IN
 * lists of every length) the rest stay unnamed, so no connection collects statements unbounded.
 */
export function preparedStatementName(max = 2_000): (query: { sql: string }) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    // Transaction control gains nothing from it (and named, it dropped out of the benchmark's pg_stat_statements count).
    if (TRANSACTION_CONTROL.test(sql)) return '';
    let name = names.get(sql);
    if (name === undefined && names.size < max) names.set(sql, (name = `p${names.size}`));
    // pg treats an empty name as an unnamed statement.
    return name ?? '';
  };
}

/** What raw.ts needs to send a root client's raw statements on the client's pool itself. */
export interface DirectPath {
  pool: pg.Pool;
  /** The adapter's statement names, so both paths share each connection's prepared statements. */
  statementName: (query: { sql: string }) => string;
  onQuery?: (sql: string) => void;
}

/** What createDb built a root client on, kept by the client (a transaction client has none). */
const backings = new WeakMap<object, DirectPath & { maxWait: number; direct: boolean }>();

/** The connection pool behind a client made by createDb (for metrics). */
export const poolOf = (db: Db): pg.Pool | undefined => backings.get(db)?.pool;

/** The direct path of a root client made by createDb (none for a transaction client, or when `direct` is false). */
export function directPathOf(db: Tx): DirectPath | undefined {
  const backing = backings.get(db);
  return backing?.direct ? backing : undefined;
}
