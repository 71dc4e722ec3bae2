// What the card-testing guard's statement costs PostgreSQL per attempt (not a test):
// `npx tsx bench/guard-probe.ts`.
//
// A throw-away embedded PostgreSQL, migrated, one workspace with the default guard. PROBE_ATTEMPTS
// attempts are judged over PROBE_CLIENTS connections at once, as the bench's payments are: from one
// busy address (an office behind one IP) with a handful of cards, so every attempt reads and writes
// the same source. `countAttempt` is the gateway's own function. It prints attempts per second, the
// CPU time of the whole PostgreSQL (postmaster and every backend, from /proc) per attempt, and the
// wall time of one call. PROBE_EXPLAIN=1 also prints the plan
// PostgreSQL keeps for the statement once it runs generic (EXPLAIN ANALYZE, BUFFERS).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import getPort from 'get-port';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createDb } from '../src/db/client.ts';
import { queryRows } from '../src/db/raw.ts';
import { Prisma } from '../src/generated/prisma/client.ts';
import { detachEmbeddedSignalHooks, startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { createWorkspace } from '../src/domain/workspaces.ts';
import { countAttempt, guardSources } from '../src/domain/risk/guard.ts';

const ATTEMPTS = Number(process.env.PROBE_ATTEMPTS) || 4000;
const ROUNDS = Number(process.env.PROBE_ROUNDS) || 3;
/** Connections judging at once (the gateway's pool has 10). */
const CLIENTS = Number(process.env.PROBE_CLIENTS) || 10;
const PAYMENTS = Number(process.env.PROBE_PAYMENTS) || 50_000;
const CARDS = ['fp-a', 'fp-b', 'fp-c'];
/** PROBE_ADDRESSES=n: the attempts come from n addresses in turn instead of one, to weigh the shared source. */
const ADDRESSES = Array.from({ length: Number(process.env.PROBE_ADDRESSES) || 1 }, (_, i) => `203.0.${113 + Math.floor(i / 250)}.${(i % 250) + 1}`);

/** User and system CPU of every process of the PostgreSQL under `dataDir`, ms. */
function postgresCpuMs(postmaster: number): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(entry) !== postmaster && Number(fields[1]) !== postmaster) continue;
      total += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // A process that ended between the listing and the read.
    }
  }
  return total;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'guard-probe-'));
  const embedded = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port: await getPort({ host: '127.0.0.1' }), persistent: false, database: 'probe' });
  detachEmbeddedSignalHooks();
  const db = createDb(embedded.url, { max: CLIENTS });
  try {
    await migrate(embedded.url);
    const { workspace } = await createWorkspace(db, randomBytes(32), { slug: 'probe' });
    const control = new pg.Client({ connectionString: embedded.url });
    await control.connect();
    control.on('error', () => undefined);
    // PROBE_DDL='statement; statement': a variant of the tables to weigh, made after the migrations.
    for (const ddl of (process.env.PROBE_DDL ?? "").split(";").filter((d) => d.trim())) await control.query(ddl);
    // PROBE_SEED_LATE=1: the pool's connections first judge attempts on an empty table (their
    // plans made then, as a gateway's are on a new database), then the payments arrive.
    const late = Boolean(process.env.PROBE_SEED_LATE);
    if (!late) await seedPayments(db, workspace.id);
    const postmaster = Number(readFileSync(path.join(dir, 'pg', 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    // The attempts name settled payments, so that the window's lookups find rows, as they do in a gateway.
    const paymentIds = (await control.query<{ id: string }>('SELECT id FROM "Payment" ORDER BY "createdAt" DESC LIMIT 10000')).rows.map((r) => r.id);
    console.log(`${ATTEMPTS} attempts per round from ${ADDRESSES.length} address(es) over ${CLIENTS} connections, ${ROUNDS} rounds; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    for (let r = late ? 0 : 1; r <= ROUNDS; r++) {
      round = r;
      if (late && r === 1) await seedPayments(db, workspace.id);
      const before = postgresCpuMs(postmaster);
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          for (let i = next++; i < ATTEMPTS; i = next++) {
            const fingerprint = CARDS[i % CARDS.length]!;
            const ip = ADDRESSES[i % ADDRESSES.length]!;
            // PROBE_VARIANT=select1: a statement that reads nothing in its place, the cost of any statement.
            if (process.env.PROBE_VARIANT === 'select1') {
              await queryRows(db, Prisma.sql`SELECT ${i}::int AS n`);
              continue;
            }
            await countAttempt(db, workspace, {
              workspaceId: workspace.id,
              paymentId: paymentIds.length ? paymentIds[i % paymentIds.length]! : randomUUID(),
              fingerprint,
              at: new Date(),
              sources: guardSources(workspace, ip, null, workspace.id),
              listed: { digits: '41111111', fingerprint, ip, email: null, country: null },
            });
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const cpu = postgresCpuMs(postmaster) - before;
      const rows = (await control.query<{ n: string }>('SELECT count(*)::text AS n FROM "RiskAttempt"')).rows[0]!.n;
      if (process.env.PROBE_SESSIONS) console.log((await control.query(`SELECT sessions FROM pg_stat_database WHERE datname = current_database()`)).rows[0]);
      console.log(
        `  round ${r}: ${(ATTEMPTS / seconds).toFixed(0)}/s, PostgreSQL CPU ${((cpu * 1000) / ATTEMPTS).toFixed(0)} µs per attempt, wall ${((seconds * 1e6 * CLIENTS) / ATTEMPTS).toFixed(0)} µs per call, ${rows} attempt rows kept`,
      );
    }
    if (process.env.PROBE_EXPLAIN && captured) await explain(control, captured);
    await control.end();
  } finally {
    await db.$disconnect();
    await embedded.stop();
    detachEmbeddedSignalHooks(['exit']);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * PROBE_PAYMENTS settled payments of the workspace (3 % failed at a bank), as a busy shop has: the
 * guard's workspace-wide decline count reads them.
 */
async function seedPayments(db: ReturnType<typeof createDb>, workspaceId: string): Promise<void> {
  const channel = await db.channel.create({ data: { workspaceId, name: 'probe' } });
  const account = await db.paymentAccount.create({ data: { workspaceId, name: 'sim', provider: 'simulator', currencies: ['TRY'] } });
  await db.$executeRawUnsafe(
    `INSERT INTO "Payment" (id, "workspaceId", "channelId", "paymentAccountId", source, "securityType", status,
       "channelReference", amount, "baseAmount", currency, "installmentNumber", "isTest", ip, "createdAt", "updatedAt")
     SELECT gen_random_uuid(), $1::uuid, $2::uuid, $3::uuid, 'api', 'non_secure',
       (CASE WHEN g % 33 = 0 THEN 'failed' ELSE 'successful' END)::"PaymentStatus", 'ORDER-' || g, 10000, 10000, 'TRY', 1, true,
       '203.0.113.7', now() - (g || ' seconds')::interval, now()
     FROM generate_series(1, $4::int) g`,
    workspaceId,
    channel.id,
    account.id,
    PAYMENTS,
  );
  if (!process.env.PROBE_SEED_LATE) await db.$executeRawUnsafe('ANALYZE "Payment"');
}

/** The statement's generic plan, run once for real (inside a rolled-back transaction). */
async function explain(control: pg.Client, q: { text: string; values: unknown[] }): Promise<void> {
  await control.query('BEGIN');
  await control.query('SET LOCAL plan_cache_mode = force_generic_plan');
  // The plans of the statements inside risk_window too (auto_explain's nested statements, sent
  // to this client as notices).
  const notices: string[] = [];
  control.on('notice', (n) => notices.push(n.message ?? ''));
  await control.query(`LOAD 'auto_explain'`);
  for (const setting of ['auto_explain.log_min_duration = 0', 'auto_explain.log_nested_statements = on', 'auto_explain.log_analyze = on', 'auto_explain.log_buffers = on', 'client_min_messages = log']) await control.query(`SET LOCAL ${setting}`);
  await control.query(`PREPARE guard AS ${q.text}`);
  const literal = (v: unknown) => (v === null ? 'NULL' : v instanceof Date ? `'${v.toISOString()}'` : `'${String(v).replace(/'/g, "''")}'`);
  // Warmed first, as a pooled connection is: risk_window compiled, its statements' plans cached.
  await control.query(`SET LOCAL auto_explain.log_min_duration = -1`);
  for (let i = 0; i < 20; i++) await control.query(`EXECUTE guard(${q.values.map(literal).join(', ')})`);
  await control.query(`SET LOCAL auto_explain.log_min_duration = 0`);
  const { rows } = await control.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) EXECUTE guard(${q.values.map(literal).join(', ')})`);
  console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
  console.log(`\nInside risk_window (auto_explain):\n${notices.filter((n) => n.includes('risk_window') || n.includes('RiskAttempt') || n.includes('"Payment"')).join('\n\n')}`);
  await control.query('ROLLBACK');
}

/** The round being run (PROBE_VARIANT=norecord records the first round's attempts only, so that later windows are full). */
let round = 0;

/** The last guard statement sent, caught on its way to the pool. */
let captured: { text: string; values: unknown[] } | null = null;
const poolQuery = pg.Pool.prototype.query;
pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
  const q = args[0] as { text?: string; values?: unknown[] };
  if (q && typeof q === 'object' && q.text?.includes('WITH src (kind')) {
    // PROBE_VARIANT=nojoin: the window without its per-row payment lookups (declines read as 0), to weigh them.
    if (process.env.PROBE_VARIANT === 'nojoin') {
      q.text = q.text
        .replace(/count\(p\.id\) FILTER \(WHERE p\.status = 'failed' AND p\."paymentAccountId" IS NOT NULL\)::int/, '0')
        .replace(/LEFT JOIN "Payment" p ON p\.id = r\."paymentId"/, '');
    }
    // PROBE_VARIANT=norecord: the window read and nothing recorded, to weigh the attempt's row.
    if (process.env.PROBE_VARIANT === 'norecord' && round > 1) {
      q.text = q.text.replace("FROM judged WHERE kind <> 'workspace' OR", 'FROM judged WHERE false AND');
      const named = q as { name?: string };
      if (named.name) named.name = `${named.name}-norecord`;
    }
    // PROBE_VARIANT=inline: the window read inline instead of through risk_window (no lock, ip declines 0), to weigh the function.
    if (process.env.PROBE_VARIANT === 'inline') {
      q.text = q.text.replace(
        /FROM risk_window\((\$\d+)::uuid, src\.kind, src\.key, (\$\d+)::text, (\$\d+)::timestamp,\s*(greatest\([^)]*\) \* \$\d+::int)\) w/,
        (_m, ws, fp, since, lim) =>
          `FROM (SELECT count(DISTINCT r.fingerprint) FILTER (WHERE r.fingerprint <> ${fp}::text)::int + 1 AS cards, 0 AS declines FROM (SELECT f.fingerprint FROM "RiskAttempt" f WHERE f."workspaceId" = ${ws}::uuid AND f.kind = src.kind AND f.key = src.key AND f.at > ${since}::timestamp ORDER BY f.at DESC LIMIT ${lim}) r) w`,
      );
      if (!q.text.includes('FROM (SELECT count(DISTINCT')) throw new Error('inline variant: risk_window call not found');
    }
    captured = { text: q.text, values: q.values ?? [] };
  }
  return (poolQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Pool.prototype.query;

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
