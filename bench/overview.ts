// The overview at a million payments (not a test): `npm run bench:overview`.
//
// Starts a throw-away embedded PostgreSQL, migrates it, seeds one workspace with OVERVIEW_ROWS
// payments (default 1,000,000) spread over OVERVIEW_SPREAD_DAYS days (default 120) with one SQL
// statement (generate_series; test/helpers/seed-payments.ts: 90 % successful in TRY/USD/EUR, the
// rest failed or expired, some refunds), plus a second workspace of the same size so that the
// indexes must pick one workspace out of two. Then, for 7, 30 and 90 days, and 90 days of one
// currency, it times the overview as the GraphQL resolver runs it (domain/overview.ts:
// three statements in parallel on the pool), OVERVIEW_RUNS times after one warm-up run, and prints
// the median and the range; then EXPLAIN (ANALYZE, BUFFERS) of each statement for 90 days, to show
// which index each one uses. docs/performance.md ("Overview at a million payments") has the figures.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import getPort from 'get-port';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createDb, type Db } from '../src/db/client.ts';
import { detachEmbeddedSignalHooks, startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { createWorkspace } from '../src/domain/workspaces.ts';
import { overviewOf, overviewStatements, type OverviewInput } from '../src/domain/overview.ts';
import { seedManyPayments } from '../test/helpers/seed-payments.ts';

const ROWS = Number(process.env.OVERVIEW_ROWS ?? 1_000_000);
const SPREAD_DAYS = Number(process.env.OVERVIEW_SPREAD_DAYS ?? 120);
const RUNS = Number(process.env.OVERVIEW_RUNS ?? 7);
const NOW = new Date('2026-03-10T12:00:00Z');

const log = (line = '') => process.stdout.write(line + '\n');

async function timeRuns(db: Db, workspace: { id: string; timeZone: string }, input: OverviewInput): Promise<number[]> {
  await overviewOf(db, workspace, input, NOW);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await overviewOf(db, workspace, input, NOW);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

/** A Prisma.Sql's values as raw.ts sends them (dates as UTC text). */
const parameter = (v: unknown) => (v instanceof Date ? v.toISOString().replace('T', ' ').replace('Z', '') : v);

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'overview-bench-'));
  const server = await startEmbeddedPostgres({ dir, port: await getPort({ host: '127.0.0.1' }), persistent: false, database: 'postgres' });
  detachEmbeddedSignalHooks();
  let db: Db | undefined;
  const bare = new pg.Pool({ connectionString: server.url, max: 2 });
  try {
    await migrate(server.url);
    db = createDb(server.url);
    const { workspace } = await createWorkspace(db, randomBytes(32), { slug: 'bench-overview' });
    const { workspace: other } = await createWorkspace(db, randomBytes(32), { slug: 'bench-other' });
    let started = performance.now();
    await seedManyPayments(server.url, other.id, { count: ROWS, days: SPREAD_DAYS, end: NOW });
    await seedManyPayments(server.url, workspace.id, { count: ROWS, days: SPREAD_DAYS, end: NOW });
    await bare.query('VACUUM ANALYZE "Payment"');
    await bare.query('VACUUM ANALYZE "Refund"');
    const counts = (await bare.query(`SELECT (SELECT count(*) FROM "Payment")::int AS payments, (SELECT count(*) FROM "Refund")::int AS refunds`)).rows[0];
    log(`seeded ${counts.payments.toLocaleString('en')} payments (${ROWS.toLocaleString('en')} per workspace, 2 workspaces, ${SPREAD_DAYS} days) and ${counts.refunds.toLocaleString('en')} refunds in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    log(`PostgreSQL ${(await bare.query('SHOW server_version')).rows[0].server_version}; ${os.cpus().length} CPUs; median of ${RUNS} runs after one warm-up`);
    log('');
    log('| period | median ms | min-max ms |');
    log('|---|---:|---:|');
    const cases: Array<[string, OverviewInput]> = [
      ['7 days', { days: 7 }],
      ['30 days', { days: 30 }],
      ['90 days', { days: 90 }],
      ['90 days, TRY only', { days: 90, currency: 'TRY' }],
    ];
    for (const [name, input] of cases) {
      started = performance.now();
      const times = await timeRuns(db, workspace, input);
      log(`| ${name} | ${times[Math.floor(times.length / 2)]!.toFixed(1)} | ${times[0]!.toFixed(1)}-${times[times.length - 1]!.toFixed(1)} |`);
    }
    const { statements } = overviewStatements(workspace, { days: 90 }, NOW);
    for (const [name, sql] of Object.entries(statements)) {
      log('');
      log(`EXPLAIN (ANALYZE, BUFFERS) ${name}, 90 days:`);
      const plan = await bare.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql.text}`, sql.values.map(parameter));
      for (const row of plan.rows) log(`    ${row['QUERY PLAN']}`);
    }
  } finally {
    await db?.$disconnect();
    await bare.end();
    await server.stop();
    detachEmbeddedSignalHooks(['exit']);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    process.stderr.write(`bench:overview failed: ${err.stack ?? err.message}\n`);
    process.exit(1);
  },
);
