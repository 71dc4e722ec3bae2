// What the indexes on "Payment" cost a payment's writes (not a test): `npx tsx bench/payment-index-probe.ts`.
//
// A throw-away embedded PostgreSQL, migrated, one workspace, channel, account and customer. A
// payment is written as the gateway writes an API payment: an INSERT of the row as `started`
// (card columns, customer, channel reference, no order, subscription or saved card), then the
// settling UPDATE to `successful`. Each variant of the indexes is set up with DDL on the migrated
// table, then PROBE_PAYMENTS payments are written over PROBE_CLIENTS connections at once (the
// table emptied first: concurrent inserts meet on the last leaf page of every index whose new
// keys all sort last, as a NULL or a growing time does); the variants take turns, PROBE_ROUNDS
// times. It prints payments per second, the CPU time of the PostgreSQL backends that wrote them
// per payment (from /proc), the WAL written per payment (the steadiest figure on a shared
// machine) and the share of settling UPDATEs that were HOT (a heap-only update adds no index entry
// at all). Medians of the rounds; the range follows.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import getPort from 'get-port';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createDb } from '../src/db/client.ts';
import { detachEmbeddedSignalHooks, startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { createWorkspace } from '../src/domain/workspaces.ts';

const PAYMENTS = Number(process.env.PROBE_PAYMENTS) || 3000;
const ROUNDS = Number(process.env.PROBE_ROUNDS) || 5;
/** Connections writing at once (the gateway's pool has 10). */
const CLIENTS = Number(process.env.PROBE_CLIENTS) || 8;

/** The owner and card links, indexed only where set since migration 0035 (as is the 3D page token). */
const LINKS = ['orderId', 'subscriptionId', 'periodId', 'storedCardId', 'paidWithCardId'];
const OVERVIEW = 'Payment_workspaceId_status_createdAt_currency_amount_idx';
/** What the dashboard's search added (migration 0027), besides the overview's index (0026). */
const SEARCH = ['Payment_workspaceId_cardLastFourDigits_idx', 'Payment_workspaceId_amount_idx', 'Payment_customerId_createdAt_idx'];

const links = (where: boolean) => LINKS.flatMap((c) => [`DROP INDEX IF EXISTS "Payment_${c}_idx"`, `CREATE INDEX "Payment_${c}_idx" ON "Payment"("${c}")${where ? ` WHERE ("${c}" IS NOT NULL)` : ''}`]);
const token = (where: boolean) => [
  `DROP INDEX IF EXISTS "Payment_threeDsToken_key"`,
  `CREATE UNIQUE INDEX "Payment_threeDsToken_key" ON "Payment"("threeDsToken")${where ? ` WHERE ("threeDsToken" IS NOT NULL)` : ''}`,
];
const overview = (outcomesOnly: boolean) => [
  `DROP INDEX IF EXISTS "${OVERVIEW}"`,
  `CREATE INDEX "${OVERVIEW}" ON "Payment"("workspaceId", "status", "createdAt", "currency", "amount")${outcomesOnly ? ` WHERE status IN ('successful', 'failed', 'expired')` : ''}`,
];
const search = [
  `CREATE INDEX IF NOT EXISTS "Payment_workspaceId_cardLastFourDigits_idx" ON "Payment"("workspaceId", "cardLastFourDigits")`,
  `CREATE INDEX IF NOT EXISTS "Payment_workspaceId_amount_idx" ON "Payment"("workspaceId", "amount")`,
  `CREATE INDEX IF NOT EXISTS "Payment_customerId_createdAt_idx" ON "Payment"("customerId", "createdAt")`,
];
const without = (names: string[]) => names.map((i) => `DROP INDEX IF EXISTS "${i}"`);

/** Each variant is the DDL that turns the table into it, from whatever the previous one left. */
const VARIANTS: Array<{ name: string; ddl: string[] }> = [
  { name: 'before 0035: links and 3D token indexed in full', ddl: [...links(false), ...token(false), ...overview(false), ...search] },
  { name: '0035: links and 3D token indexed where set', ddl: [...links(true), ...token(true), ...overview(false), ...search] },
  { name: 'before 0026/0027: no overview or search index, links and token in full', ddl: [...links(false), ...token(false), ...without([OVERVIEW, ...SEARCH])] },
  // Measured for the record, not kept: the overview's index alone holds status, so that no
  // settling UPDATE can be HOT; and an overview index of outcomes only (no entry for `started`).
  { name: '0035 without the overview index', ddl: [...links(true), ...token(true), ...without([OVERVIEW]), ...search] },
  { name: '0035 with an overview index of outcomes only', ddl: [...links(true), ...token(true), ...overview(true), ...search] },
];

interface Ids {
  workspaceId: string;
  channelId: string;
  accountId: string;
  customerId: string;
}

const INSERT = `
  INSERT INTO "Payment" (id, "workspaceId", "channelId", "customerId", "paymentAccountId", source, "securityType", status,
    "channelReference", amount, "baseAmount", currency, "installmentNumber", "isTest", ip, "callbackUrl",
    "cardHolderName", "cardFirstDigits", "cardLastFourDigits", "cardScheme", "cardExpiryMonth", "cardExpiryYear",
    "routingReason", "createdAt", "updatedAt")
  VALUES ($1, $2, $3, $4, $5, 'api', 'non_secure', 'started', $6, 10000, 10000, 'TRY', 1, true, '203.0.113.7',
    'http://127.0.0.1:9/callback', 'AYSE YILMAZ', '41111111', '1111', 'visa', '12', '2030', 'default',
    now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')`;

const SETTLE = `
  UPDATE "Payment" SET status = 'successful', "paymentStatus" = 'paid', "providerReference" = $2, "errorCode" = NULL,
    "errorMessage" = NULL, "completedAt" = now() AT TIME ZONE 'UTC', "threeDsToken" = NULL, "updatedAt" = now() AT TIME ZONE 'UTC'
  WHERE id = $1 AND status::text = ANY('{started,unresolved}'::text[])`;

/** User and system CPU of one process, ms (clock ticks of 10 ms; the rounds are seconds long). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Writer {
  client: pg.Client;
  pid: number;
}

interface RoundResult {
  cpuUs: number;
  walBytes: number;
  hot: number;
  perSecond: number;
}

/** PROBE_PAYMENTS payments over the writers at once (as the gateway's pool writes them), the table emptied first. */
async function round(control: pg.Client, writers: Writer[], ids: Ids): Promise<RoundResult> {
  await control.query('TRUNCATE "Payment" CASCADE');
  await control.query('SELECT pg_stat_reset_single_table_counters(\'"Payment"\'::regclass)');
  const walBefore = (await control.query<{ l: string }>('SELECT pg_current_wal_insert_lsn()::text AS l')).rows[0]!.l;
  const cpu = () => writers.reduce((sum, w) => sum + cpuMs(w.pid), 0);
  const cpuBefore = cpu();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    writers.map(async ({ client }) => {
      for (let i = next++; i < PAYMENTS; i = next++) {
        const id = randomUUID();
        await client.query({ name: 'insert', text: INSERT, values: [id, ids.workspaceId, ids.channelId, ids.customerId, ids.accountId, `ORDER-${i}`] });
        await client.query({ name: 'settle', text: SETTLE, values: [id, randomUUID()] });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuUsed = cpu() - cpuBefore;
  const wal = (await control.query<{ b: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1)::text AS b', [walBefore])).rows[0]!.b;
  // Each backend reports its table counters at most once a second unless told to now.
  for (const w of writers) await w.client.query('SELECT pg_stat_force_next_flush()');
  await control.query('SELECT pg_sleep(0.05)');
  const { rows } = await control.query<{ upd: string; hot: string }>(`SELECT n_tup_upd::text AS upd, n_tup_hot_upd::text AS hot FROM pg_stat_user_tables WHERE relid = '"Payment"'::regclass`);
  const hot = Number(rows[0]!.upd) ? Number(rows[0]!.hot) / Number(rows[0]!.upd) : 0;
  return { cpuUs: (cpuUsed * 1000) / PAYMENTS, walBytes: Number(wal) / PAYMENTS, hot, perSecond: PAYMENTS / seconds };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'payment-index-probe-'));
  const embedded = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port: await getPort({ host: '127.0.0.1' }), persistent: false, database: 'probe' });
  detachEmbeddedSignalHooks();
  try {
    await migrate(embedded.url);
    const db = createDb(embedded.url);
    const { workspace } = await createWorkspace(db, randomBytes(32), { slug: 'probe' });
    const channel = await db.channel.create({ data: { workspaceId: workspace.id, name: 'probe' } });
    const account = await db.paymentAccount.create({ data: { workspaceId: workspace.id, name: 'sim', provider: 'simulator', currencies: ['TRY'] } });
    const customer = await db.customer.create({ data: { workspaceId: workspace.id, channelId: channel.id, channelReference: 'c-1', email: 'c1@example.com' } });
    await db.$disconnect();
    const ids: Ids = { workspaceId: workspace.id, channelId: channel.id, accountId: account.id, customerId: customer.id };

    const control = new pg.Client({ connectionString: embedded.url });
    await control.connect();
    const writers: Writer[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const client = new pg.Client({ connectionString: embedded.url });
      await client.connect();
      writers.push({ client, pid: (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid });
    }
    const results = VARIANTS.map(() => [] as RoundResult[]);
    console.log(`${PAYMENTS} payments (INSERT started, UPDATE successful) per round on ${CLIENTS} connections at once, ${ROUNDS} rounds, variants in turn; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    for (let r = 1; r <= ROUNDS; r++) {
      for (const [v, variant] of VARIANTS.entries()) {
        for (const statement of variant.ddl) await control.query(statement);
        const result = await round(control, writers, ids);
        results[v]!.push(result);
        console.log(
          `  round ${r}, ${variant.name}: ${result.perSecond.toFixed(0)}/s, backend CPU ${result.cpuUs.toFixed(0)} µs, WAL ${result.walBytes.toFixed(0)} bytes per payment, HOT updates ${(result.hot * 100).toFixed(0)} %`,
        );
      }
    }
    await Promise.all([control, ...writers.map((w) => w.client)].map((c) => c.end()));
    console.log('\n| indexes on "Payment" | payments/s | backend CPU µs per payment | WAL bytes per payment | HOT updates |');
    console.log('|---|---:|---:|---:|---:|');
    for (const [v, variant] of VARIANTS.entries()) {
      const cpu = results[v]!.map((x) => x.cpuUs);
      const wal = results[v]!.map((x) => x.walBytes);
      const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}`;
      const rate = results[v]!.map((x) => x.perSecond);
      console.log(`| ${variant.name} | ${median(rate).toFixed(0)} (${range(rate)}) | ${median(cpu).toFixed(0)} (${range(cpu)}) | ${median(wal).toFixed(0)} (${range(wal)}) | ${(median(results[v]!.map((x) => x.hot)) * 100).toFixed(0)} % |`);
    }
  } finally {
    await embedded.stop();
    detachEmbeddedSignalHooks(['exit']);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
