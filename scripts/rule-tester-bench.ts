// The rule tester at a million payments (a measurement, not a test): `npm run bench:rule-tester`.
//
// Starts a throw-away embedded PostgreSQL, migrates it, and seeds one workspace with
// RULE_TESTER_ROWS payments (default 1,000,000) over the last 90 days in one generate_series
// statement, each judged as the gateway keeps it: a `risk` record with the source, the address's
// and the card's countries, a fingerprint and the guard's figures (address, workspace), an
// address, a scheme, and a customer of 20,000 with an e-mail. Then it times every field the rules
// read, one condition each over 90 days, as the tester runs it (rule-test.ts: the counts and the
// newest matches at once on two connections), RULE_TESTER_RUNS times (default 3) after one
// warm-up, and prints the median and the range; then EXPLAIN (ANALYZE, BUFFERS) of both statements
// of the slowest condition (or of RULE_TESTER_EXPLAIN, a condition's name in the table). With
// RULE_TESTER_DIR the database is kept in that folder and seeded only the first time, so a change
// can be measured again on the same rows. docs/performance.md ("The rule tester at a million payments") has the
// figures.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import getPort from 'get-port';
import pg from 'pg';
import { createDb, type Db } from '../src/db/client.ts';
import { detachEmbeddedSignalHooks, startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { createWorkspace } from '../src/domain/workspaces.ts';
import { pastStatements, testOnStoredAttempts } from '../src/domain/risk/rule-test.ts';
import type { Condition } from '../src/domain/risk/rules.ts';

const ROWS = Number(process.env.RULE_TESTER_ROWS ?? 1_000_000);
const RUNS = Number(process.env.RULE_TESTER_RUNS ?? 3);
const DAYS = 90;
const NOW = new Date('2026-03-10T12:00:00Z');
const CUSTOMERS = 20_000;

const log = (line = '') => process.stdout.write(line + '\n');

/** One condition per field, each the kind a merchant writes. */
const CASES: Array<[string, Condition[]]> = [
  ['amount gte 500000', [{ field: 'amount', operator: 'gte', value: 500000 }]],
  ['currency eq USD', [{ field: 'currency', operator: 'eq', value: 'USD' }]],
  ['installment_number gt 1', [{ field: 'installment_number', operator: 'gt', value: 1 }]],
  ['source eq payment_link', [{ field: 'source', operator: 'eq', value: 'payment_link' }]],
  ['security eq secure', [{ field: 'security', operator: 'eq', value: 'secure' }]],
  ['card.bin starts_with 5555', [{ field: 'card.bin', operator: 'starts_with', value: '5555' }]],
  ['card.scheme eq mastercard', [{ field: 'card.scheme', operator: 'eq', value: 'mastercard' }]],
  ['card.type eq credit', [{ field: 'card.type', operator: 'eq', value: 'credit' }]],
  ['card.issuer_code eq 0046', [{ field: 'card.issuer_code', operator: 'eq', value: '0046' }]],
  ['card.country eq TR', [{ field: 'card.country', operator: 'eq', value: 'TR' }]],
  ['ip starts_with 203.0.113.', [{ field: 'ip', operator: 'starts_with', value: '203.0.113.' }]],
  ['ip.country ne TR', [{ field: 'ip.country', operator: 'ne', value: 'TR' }]],
  ['email eq shopper7@example.net', [{ field: 'email', operator: 'eq', value: 'shopper7@example.net' }]],
  ['email_domain eq example.net', [{ field: 'email_domain', operator: 'eq', value: 'example.net' }]],
  ['ip.cards gte 3', [{ field: 'ip.cards', operator: 'gte', value: 3 }]],
  ['ip.declines gte 2', [{ field: 'ip.declines', operator: 'gte', value: 2 }]],
  [
    'card.country ne ip.country and amount gt 500000',
    [
      { field: 'card.country', operator: 'ne', value: { field: 'ip.country' } },
      { field: 'amount', operator: 'gt', value: 500000 },
    ],
  ],
];

async function seed(client: pg.Pool, workspaceId: string, channelId: string): Promise<void> {
  await client.query(
    `INSERT INTO "Customer" (id, "workspaceId", "channelId", "channelReference", email, "createdAt", "updatedAt")
     SELECT gen_random_uuid(), $1, $2, 'C-' || i, 'shopper' || i || (ARRAY['@example.com','@example.net','@example.org'])[1 + i % 3], now(), now()
       FROM generate_series(1, $3::int) AS i`,
    [workspaceId, channelId, CUSTOMERS],
  );
  const stepMs = (DAYS * 86_400_000) / ROWS;
  await client.query(
    `WITH c AS (SELECT array_agg(id ORDER BY "channelReference") AS ids FROM "Customer" WHERE "workspaceId" = $1)
     INSERT INTO "Payment" (id, "workspaceId", source, "securityType", status, "paymentStatus", amount, "baseAmount", currency, "isTest", "installmentNumber",
                            "errorCode", "channelReference", "cardFirstDigits", "cardLastFourDigits", "cardScheme", ip, "customerId", risk, "createdAt", "updatedAt")
     SELECT gen_random_uuid(), $1, (ARRAY['api','payment_link','order','api']::"PaymentSource"[])[1 + i % 4], CASE WHEN i % 3 = 0 THEN 'secure' ELSE 'non_secure' END::"SecurityType",
            s.status::"PaymentStatus", CASE WHEN s.status = 'successful' THEN 'paid'::"PaymentMoneyStatus" END,
            1000 + (i % 997) * 1000, 1000 + (i % 997) * 1000, (ARRAY['TRY','TRY','USD','EUR'])[1 + i % 4]::"Currency", true, 1 + (i % 6 = 0)::int * 2,
            CASE WHEN s.status = 'failed' THEN 'insufficient_funds' END, 'REF-' || i,
            (ARRAY['41111111','55555555','97920300'])[1 + i % 3], '1111', (ARRAY['visa','mastercard','troy'])[1 + i % 3],
            (ARRAY['203.0.113.','198.51.100.','85.105.1.','8.8.4.'])[1 + i % 4] || (i % 250),
            c.ids[1 + i % ${CUSTOMERS}],
            jsonb_build_object('outcome', 'allow', 'source', (ARRAY['api','payment_link','order','api'])[1 + i % 4], 'guarded', true, 'rules', '[]'::jsonb,
              'fingerprint', md5(i::text) || md5((i % 7)::text),
              'ipCountry', (ARRAY['TR','TR','DE','US'])[1 + i % 4],
              'cardCountry', CASE WHEN i % 5 = 0 THEN NULL ELSE 'TR' END,
              'figures', jsonb_build_array(
                jsonb_build_object('kind', 'ip', 'cards', 1 + i % 4, 'declines', i % 3, 'coolingDown', false),
                jsonb_build_object('kind', 'workspace', 'cards', NULL, 'declines', i % 40, 'coolingDown', false))) - CASE WHEN i % 5 = 0 THEN 'cardCountry' ELSE '' END,
            t, t
       FROM c, generate_series(1, $2::int) AS i,
            LATERAL (SELECT ($3::timestamptz AT TIME ZONE 'UTC') - (i * $4::float8) * interval '1 millisecond' AS t) AS tt,
            LATERAL (SELECT CASE WHEN i % 10 = 3 THEN 'failed' ELSE 'successful' END AS status) AS s`,
    [workspaceId, ROWS, NOW.toISOString(), stepMs],
  );
}

async function timeRuns(db: Db, workspaceId: string, conditions: Condition[]): Promise<{ times: number[]; matched: number }> {
  const first = await testOnStoredAttempts(db, workspaceId, conditions, DAYS, NOW);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await testOnStoredAttempts(db, workspaceId, conditions, DAYS, NOW);
    times.push(performance.now() - start);
  }
  return { times: times.sort((a, b) => a - b), matched: first.matched };
}

/** A Prisma.Sql's values as raw.ts sends them (dates as UTC text). */
const parameter = (v: unknown) => (v instanceof Date ? v.toISOString().replace('T', ' ').replace('Z', '') : typeof v === 'bigint' ? v.toString() : v);

/**
 * The counts of one condition sent as a named (prepared) statement on one connection, as every raw
 * statement was before the tester's were sent unnamed: after five runs PostgreSQL may keep one
 * generic plan for any values. Each run's time, then the plan of a run with the generic plan forced.
 */
async function preparedRuns(pool: pg.Pool, workspaceId: string): Promise<void> {
  const [name, conditions] = CASES.find(([n]) => n === (process.env.RULE_TESTER_PREPARED ?? 'ip.cards gte 3'))!;
  const { counts } = pastStatements(workspaceId, conditions, DAYS, NOW);
  const client = await pool.connect();
  try {
    const times: string[] = [];
    for (let i = 0; i < 8; i++) {
      const start = performance.now();
      await client.query({ name: 'counts', text: counts.text, values: counts.values.map(parameter) });
      times.push((performance.now() - start).toFixed(0));
    }
    log('');
    log(`The counts of "${name}" as one named statement, 8 runs on one connection (ms): ${times.join(', ')}`);
    await client.query('SET plan_cache_mode = force_generic_plan');
    await client.query(`PREPARE generic AS ${counts.text}`);
    const args = counts.values.map((v) => client.escapeLiteral(String(parameter(v)))).join(', ');
    log('');
    log(`EXPLAIN (ANALYZE, BUFFERS) counts, "${name}", generic plan:`);
    for (const row of (await client.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) EXECUTE generic(${args})`)).rows) log(`    ${row['QUERY PLAN']}`);
  } finally {
    await client.query('DEALLOCATE ALL; RESET plan_cache_mode');
    client.release();
  }
}

async function main(): Promise<void> {
  const kept = process.env.RULE_TESTER_DIR;
  const dir = kept ?? mkdtempSync(path.join(os.tmpdir(), 'rule-tester-bench-'));
  const server = await startEmbeddedPostgres({ dir, port: await getPort({ host: '127.0.0.1' }), persistent: Boolean(kept), database: 'postgres' });
  detachEmbeddedSignalHooks();
  let db: Db | undefined;
  const bare = new pg.Pool({ connectionString: server.url, max: 2 });
  try {
    await migrate(server.url);
    db = createDb(server.url);
    let workspace = await db.workspace.findUnique({ where: { slug: 'bench-rule-tester' } });
    if (!workspace) {
      workspace = (await createWorkspace(db, randomBytes(32), { slug: 'bench-rule-tester' })).workspace;
      const channel = await db.channel.create({ data: { workspaceId: workspace.id, name: 'bench' } });
      const started = performance.now();
      await seed(bare, workspace.id, channel.id);
      await bare.query('VACUUM ANALYZE "Payment"');
      await bare.query('VACUUM ANALYZE "Customer"');
      log(`seeded ${ROWS.toLocaleString('en')} payments over ${DAYS} days and ${CUSTOMERS.toLocaleString('en')} customers in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    const size = (await bare.query(`SELECT pg_size_pretty(pg_table_size('"Payment"')) AS size`)).rows[0].size;
    log(`"Payment" holds ${size}`);
    log(`PostgreSQL ${(await bare.query('SHOW server_version')).rows[0].server_version}; ${os.cpus().length} CPUs; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; median of ${RUNS} runs after one warm-up, 90 days`);
    log('');
    log('| condition | matched | median ms | min-max ms |');
    log('|---|---:|---:|---:|');
    let slowest: { name: string; conditions: Condition[]; median: number } | null = null;
    for (const [name, conditions] of CASES) {
      const { times, matched } = await timeRuns(db, workspace.id, conditions);
      const median = times[Math.floor(times.length / 2)]!;
      if (!slowest || median > slowest.median) slowest = { name, conditions, median };
      log(`| ${name} | ${matched.toLocaleString('en')} | ${median.toFixed(0)} | ${times[0]!.toFixed(0)}-${times[times.length - 1]!.toFixed(0)} |`);
    }
    const only = process.env.RULE_TESTER_EXPLAIN;
    const explained = only ? CASES.find(([name]) => name === only) : slowest ? [slowest.name, slowest.conditions] : null;
    if (explained) {
      const statements = pastStatements(workspace.id, explained[1] as Condition[], DAYS, NOW);
      for (const [name, sql] of Object.entries(statements)) {
        log('');
        log(`EXPLAIN (ANALYZE, BUFFERS) ${name}, "${explained[0]}":`);
        const plan = await bare.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql.text}`, sql.values.map(parameter));
        for (const row of plan.rows) log(`    ${row['QUERY PLAN']}`);
      }
    }
    await preparedRuns(bare, workspace.id);
  } finally {
    await db?.$disconnect();
    await bare.end();
    await server.stop();
    detachEmbeddedSignalHooks(['exit']);
    if (!kept) rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    process.stderr.write(`bench:rule-tester failed: ${err.stack ?? err.message}\n`);
    process.exit(1);
  },
);
