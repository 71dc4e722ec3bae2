// `npm run bench` (not a test): the gateway against a bare-pg baseline, in one run, on this machine.
//
// The gateway starts as a new user starts it (its own `node --import tsx src/main.ts`, embedded
// PostgreSQL in a temp DATA_DIR, simulator provider, LOG_LEVEL=warn). It is started twice: the
// first start creates the database and the demo workspace, then pg_stat_statements is switched
// on, which PostgreSQL loads only at start. Then, each phase measured after a drained warm-up with
// the same concurrent clients over keep-alive HTTP (or, for the baseline, a pg pool):
//   baseline  bare pg: the 3-statement payment transaction, a 1-statement retrieve, and the
//             gateway's admission statement alone (one workspace's ceiling)
//   floor     the same SQL behind a bare node:http server (bench/floor-server.ts): the least any
//             Node service pays per request here, the bound for the gateway's ratios
//   payment   regular-payment (non-3D, approved card)
//   secure    secure-payment up to its answer with the 3D page's address (the page is not opened)
//   retrieve  retrieve-payment of the payments just made
//   list      the GraphQL `payments` list a dashboard sends, at each page size
//   guard     regular-payment without the risk decision, then with the default guard and ten
//             rules, back to back in pairs: the decision's cost as a median ratio (guard-phase.ts)
//   bank      regular-payment through an iyzico account whose bank (the iyzico emulator, its own
//             process) answers in 300-800 ms, 128 clients: the rate against 128 / mean bank
//             latency, no 503 and nothing but 200, p99 within 50 ms of the bank's (bank-phase.ts)
//   webhooks  N notifications due at once, delivered to a local receiver
// Counters: gateway and PostgreSQL CPU from /proc (the gateway process tree without PostgreSQL's;
// the postmaster with its backends), statements and transactions from pg_stat_statements.
// See docs/performance.md for what the numbers mean and the measured tables.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseBenchArgs, USAGE, type BenchOptions, type Phase } from './lib/args.ts';
import { Baseline } from './lib/baseline.ts';
import { alive, GatewayProcess } from './lib/gateway-process.ts';
import { customerRef, listPayments, regularPayment, retrievePayment, securePaymentStart } from './lib/gateway-ops.ts';
import { HttpClient } from './lib/http-client.ts';
import { runLoad, warmUp, type Operation } from './lib/load.ts';
import { FloorProcess } from './lib/floor-process.ts';
import { Meter } from './lib/meter.ts';
import { freePort } from './lib/net.ts';
import { enableStatementStats, SqlCounter } from './lib/pg-counters.ts';
import { bankTable, floorLine, goals, operationsTable, roundsLines, statementsPerOp, webhookTable, type OperationRow, type PaymentRounds } from './lib/report.ts';
import { fmt, fmtShort, sleep } from './lib/stats.ts';
import { runWebhookPhase, type WebhookResult } from './lib/webhook-phase.ts';
import { bankChecks, runBankPhase, type BankResult } from './lib/bank-phase.ts';
import { runGuardPhase, type GuardRounds } from './lib/guard-phase.ts';

/** Payments made before retrieve or list phases when the payment phase does not run. */
const SEED_PAYMENTS = 200;

const log = (line = '') => process.stdout.write(line + '\n');

interface Run {
  opts: BenchOptions;
  signal: AbortSignal;
  gateway: GatewayProcess;
  meter: Meter;
  http: HttpClient;
  rows: OperationRow[];
  /** --rounds, per worker count. */
  rounds: PaymentRounds[];
  /** Operations that failed in the rounds (the phases count theirs in `rows`). */
  roundErrors: number;
  /** The bank phase's rounds, per worker count. */
  bank: BankResult[][];
  /** The guard phase's pairs (the first worker count's). */
  guard: GuardRounds | null;
}

async function measure(run: Run, name: string, op: Operation, baseline = false): Promise<OperationRow> {
  const { opts, meter } = run;
  let usage = null as Awaited<ReturnType<Meter['stop']>> | null;
  const load = await runLoad(op, {
    concurrency: opts.concurrency,
    signal: run.signal,
    warmupMs: opts.warmupMs,
    durationMs: opts.durationMs,
    around: { before: () => meter.start(), after: async () => void (usage = await meter.stop()) },
  });
  const row: OperationRow = { name, baseline, load, usage: usage! };
  run.rows.push(row);
  const u = row.usage;
  log(
    `  ${name}: ${fmt(load.ok)} ops in ${load.seconds.toFixed(1)} s = ${fmt(load.perSecond, 0)}/s, p50 ${fmtShort(load.p50)} ms, p99 ${fmtShort(load.p99)} ms; ` +
      `CPU per op: gateway ${baseline ? '—' : fmtShort(u.gatewayCpuMs / load.ok)} ms, PostgreSQL ${fmtShort(u.postgresCpuMs / load.ok)} ms, this process ${fmtShort(u.benchCpuMs / load.ok)} ms; ` +
      `${fmtShort(u.sql.statements / load.ok)} statements, ${fmtShort(u.sql.transactions / load.ok)} transactions per op` +
      (load.errors ? `; ${fmt(load.errors)} errors, first: ${load.firstError}` : '') +
      (u.sql.evicted ? '; pg_stat_statements evicted entries: SQL counts are low' : ''),
  );
  if (opts.showSql) log(statementsPerOp(u, load.ok));
  return row;
}

/** The bare-pg client on the gateway's database, with as many connections as the gateway's pool. */
const openBaseline = (gateway: GatewayProcess) => Baseline.open(gateway.databaseUrl(), Number(process.env.DB_POOL_SIZE) || 10, gateway.demoCredentials());

async function runBaseline(run: Run, baseline: Baseline): Promise<number> {
  const payment = await measure(run, 'bare pg: payment transaction (3 statements)', () => baseline.payment(customerRef()), true);
  const tokens = baseline.tokens;
  await measure(run, 'bare pg: retrieve (1 SELECT)', () => baseline.retrieve(tokens[Math.floor(Math.random() * tokens.length)]!), true);
  await measure(run, 'bare pg: admission (1 statement, one workspace)', () => baseline.admission(), true);
  return payment.load.perSecond;
}

/**
 * regular-payment and retrieve-payment, the same requests and checks as the gateway phases, against
 * the floor server on the same database; its CPU is the "gateway" column of these rows.
 */
async function runFloor(run: Run, sql: SqlCounter): Promise<void> {
  const demo = run.gateway.demoCredentials();
  const floor = await FloorProcess.start({ port: await freePort(), databaseUrl: run.gateway.databaseUrl(), demo, postgresPid: () => run.gateway.postgresPid() });
  const client = new HttpClient(floor.baseUrl, run.opts.concurrency);
  const floorRun: Run = { ...run, http: client, meter: new Meter(floor, sql) };
  try {
    const tokens: string[] = [];
    let n = 0;
    await measure(floorRun, 'bare node: HTTP + payment transaction', async () => void tokens.push(await regularPayment(client, demo, n++)));
    await measure(floorRun, 'bare node: HTTP + retrieve', () => retrievePayment(client, demo, tokens[Math.floor(Math.random() * tokens.length)]!));
  } finally {
    await client.drain(10_000);
    client.close();
    await floor.stop();
  }
}

/** Row names say the worker count when more than one count is measured. */
async function runGatewayPhases(run: Run, label: (name: string) => string): Promise<void> {
  const { opts, gateway, http } = run;
  const demo = gateway.demoCredentials();
  const tokens: string[] = [];
  let n = 0;
  const pay: Operation = async () => void tokens.push(await regularPayment(http, demo, n++));
  let started = 0;
  const secure: Operation = () => securePaymentStart(http, demo, started++);
  const retrieve: Operation = () => retrievePayment(http, demo, tokens[Math.floor(Math.random() * tokens.length)]!);
  const measured = ['payment', 'secure', 'retrieve', 'list', 'guard'].some((phase) => opts.phases.has(phase as Phase));
  if (opts.jitWarmupMs > 0 && measured) {
    // The operations the phases will measure, in turn; retrieve reads the payments made so far.
    const mixed: Operation[] = [pay];
    if (opts.phases.has('secure')) mixed.push(secure);
    if (opts.phases.has('retrieve') || opts.phases.has('list')) mixed.push((client) => (tokens.length ? retrieve(client) : pay(client)));
    const failed = await warmUp(mixed, opts.concurrency, opts.jitWarmupMs, run.signal);
    log(`  JIT warm-up: ${opts.jitWarmupMs / 1000} s of ${mixed.length > 1 ? 'mixed ' : ''}operations, not measured${failed ? ` (${fmt(failed)} failed)` : ''}`);
  }
  if (opts.phases.has('payment')) await measure(run, label('regular-payment'), pay);
  if (opts.phases.has('secure')) await measure(run, label('secure-payment start'), secure);
  const needed = opts.phases.has('retrieve') || opts.phases.has('list') ? Math.max(SEED_PAYMENTS, ...opts.listSizes) : 0;
  if (tokens.length < needed) {
    log(`  making ${fmt(needed - tokens.length)} payments first (not measured)`);
    while (tokens.length < needed && !run.signal.aborted) await Promise.all(Array.from({ length: Math.min(opts.concurrency, needed - tokens.length) }, () => pay(0)));
  }
  if (opts.phases.has('retrieve')) await measure(run, label('retrieve-payment'), retrieve);
  if (opts.phases.has('list')) {
    const { token } = await gateway.cli<{ token: string }>(['token', 'create', '--workspace', demo.team, '--name', 'bench']);
    for (const size of opts.listSizes) await measure(run, label(`GraphQL payments list (first ${size})`), () => listPayments(http, token, size));
  }
}

/**
 * --rounds: the payment ratio measured again in back-to-back pairs, the bare-pg payment transaction
 * then regular-payment, so that the goal is judged on a median of pairs a few seconds apart rather
 * than on one pair of phases minutes apart on a shared machine. Throughput and latency only. With
 * the floor phase selected, each round also runs the floor server's payment in between, so the
 * gateway's ratio to the floor is a median of rounds too.
 */
async function runRounds(run: Run, label: string): Promise<void> {
  const { opts, gateway, http } = run;
  const demo = gateway.demoCredentials();
  const baseline = await openBaseline(gateway);
  const floor = opts.phases.has('floor') ? await FloorProcess.start({ port: await freePort(), databaseUrl: gateway.databaseUrl(), demo, postgresPid: () => gateway.postgresPid() }) : null;
  const floorClient = floor ? new HttpClient(floor.baseUrl, opts.concurrency) : null;
  const unmetered = { before: async () => {}, after: async () => {} };
  const load = (op: Operation) => runLoad(op, { concurrency: opts.concurrency, signal: run.signal, warmupMs: opts.warmupMs, durationMs: opts.durationMs, around: unmetered });
  const rounds: PaymentRounds = { label, ratios: [], p99s: [], floorRatios: [] };
  let n = 0;
  try {
    for (let round = 1; round <= opts.rounds && !run.signal.aborted; round++) {
      const bare = await load(() => baseline.payment(customerRef()));
      const floored = floorClient ? await load(async () => void (await regularPayment(floorClient, demo, n++))) : null;
      const paid = await load(async () => void (await regularPayment(http, demo, n++)));
      rounds.ratios.push(paid.perSecond / bare.perSecond);
      rounds.p99s.push(paid.p99);
      if (floored) rounds.floorRatios.push(paid.perSecond / floored.perSecond);
      const errors = bare.errors + (floored?.errors ?? 0) + paid.errors;
      run.roundErrors += errors;
      const floorText = floored ? `, floor ${fmt(floored.perSecond, 0)}/s` : '';
      log(
        `  payment round ${round} of ${opts.rounds}, ${label}: bare pg ${fmt(bare.perSecond, 0)}/s${floorText}, regular-payment ${fmt(paid.perSecond, 0)}/s, p99 ${fmtShort(paid.p99)} ms: ${fmtShort(rounds.ratios.at(-1)!)} ×` +
          (floored ? ` (${fmtShort(rounds.floorRatios.at(-1)!)} × the floor)` : '') +
          (errors ? `; ${fmt(errors)} errors, first: ${bare.firstError ?? floored?.firstError ?? paid.firstError}` : ''),
      );
    }
  } finally {
    await baseline.close();
    if (floorClient) {
      await floorClient.drain(10_000);
      floorClient.close();
    }
    await floor?.stop();
  }
  run.rounds.push(rounds);
}

/** The bank phase: a payment per client in flight against a slow bank; its bounds are judged in the summary. */
async function runBank(run: Run, label: string): Promise<void> {
  const { opts } = run;
  const settings = { ...opts.bank, warmupMs: opts.warmupMs, durationMs: opts.durationMs };
  run.bank.push(await runBankPhase(run.gateway, run.meter, settings, label, run.signal, (r) => log(bankLine(r, opts.bank.rounds))));
}

function bankLine(r: BankResult, rounds: number): string {
  const per = (total: number) => fmtShort(total / r.ok);
  return (
    `  bank${r.label ? `, ${r.label}` : ''}${rounds > 1 ? `, round ${r.round} of ${rounds}` : ''} (${r.clients} clients, iyzico emulator answering in ${r.latency.minMs}-${r.latency.maxMs} ms): ` +
    `${fmt(r.ok)} payments in ${r.seconds.toFixed(1)} s = ${fmt(r.perSecond, 0)}/s of ${fmt(r.theoreticalPerSecond, 0)}/s theoretical (${fmtShort(r.ratio)} ×); ` +
    `p50 ${fmtShort(r.p50)} ms, p99 ${fmtShort(r.p99)} ms against the bank's mean ${fmtShort(r.bank.meanMs)} ms, p99 ${fmtShort(r.bank.p99)} ms over ${fmt(r.bank.calls)} calls; ` +
    `${r.status503} × 503, ${r.non200} non-200, ${r.unsuccessful} unsuccessful of ${fmt(r.requests)} requests; ` +
    `CPU per payment: gateway ${per(r.usage.gatewayCpuMs)} ms, PostgreSQL ${per(r.usage.postgresCpuMs)} ms, this process ${per(r.usage.benchCpuMs)} ms; ${per(r.usage.sql.statements)} statements per payment` +
    (r.firstError ? `; first failure: ${r.firstError}` : '')
  );
}

function printHeader(opts: BenchOptions): void {
  const cpus = os.cpus();
  log('Gateway benchmark (npm run bench)');
  log(`  ${new Date().toISOString()}, node ${process.version}, ${cpus.length} CPU(s) (${cpus[0]?.model ?? 'unknown'}), load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  log(
    `  ${opts.concurrency} concurrent clients, ${opts.jitWarmupMs / 1000} s JIT warm-up after each gateway start, ${opts.warmupMs / 1000} s warm-up (not measured, drained) then ${opts.durationMs / 1000} s measured per phase; ` +
      `${fmt(opts.events)} webhook events; phases: ${[...opts.phases].join(', ')}${opts.quick ? ' (--quick)' : ''}`,
  );
  if (opts.workers.length > 1 || opts.workers[0] !== 1) log(`  gateway phases with WORKERS=${opts.workers.join(', then ')}`);
  if (opts.phases.has('bank')) {
    const { clients, latency, rounds } = opts.bank;
    log(`  bank phase: ${clients} clients, the iyzico emulator (own process) answering in ${latency.minMs}-${latency.maxMs} ms${rounds > 1 ? `, ${rounds} rounds` : ''}`);
  }
}

function printSummary(run: Run, baselinePerSecond: number | null, webhooks: WebhookResult | null, backgroundPerSecond: number | null): void {
  log();
  log('Results');
  log('  ops: completed in the measured window; p50/p99: client-side latency of each request;');
  log('  CPU ms/op: gateway process tree (PostgreSQL excluded) and PostgreSQL (postmaster and backends) from /proc;');
  log('  SQL/op: statements PostgreSQL executed (pg_stat_statements), BEGIN/COMMIT/ROLLBACK not counted;');
  log('  tx/op: explicit transactions (BEGIN…COMMIT blocks); a statement sent alone is not counted as one;');
  log(`  × baseline: ops/s divided by the bare-pg payment transaction's ops/s (docs/performance.md, "Performance goals").`);
  if (backgroundPerSecond !== null) log(`  The idle gateway's own polling ran ${fmtShort(backgroundPerSecond)} statements/s; they are included.`);
  if (run.rows.length) {
    log();
    log(operationsTable(run.rows, baselinePerSecond));
  }
  if (webhooks) {
    log();
    log(webhookTable(webhooks));
    log(
      `  recorded in ${webhooks.recordSeconds.toFixed(1)} s (not measured); delay = due instant to receipt; ${fmt(webhooks.rowsDelivered)} rows marked delivered, ` +
        `${fmt(webhooks.distinct)} distinct ids received${webhooks.received > webhooks.distinct ? ` (${webhooks.received - webhooks.distinct} duplicates)` : ''}`,
    );
  }
  if (run.rounds.length) {
    log();
    log(`Payment rounds (bare pg, ${run.opts.phases.has('floor') ? 'the floor, ' : ''}then regular-payment, back to back; ${run.opts.durationMs / 1000} s each)`);
    log(roundsLines(run.rounds));
  }
  if (run.bank.length) {
    log();
    log(bankTable(run.bank.flat()));
  }
  log();
  log('Goals (docs/performance.md)');
  log(goals(run.rows, baselinePerSecond, webhooks, run.rounds, run.guard));
  for (const rounds of run.bank) for (const c of bankChecks(rounds, fmtShort)) log(`  ${c.met ? 'met    ' : 'FAIL   '}  ${c.text}${rounds[0]?.label ? `, ${rounds[0].label}` : ''}: ${c.measured}`);
  const floor = floorLine(run.rows, baselinePerSecond);
  if (floor) log(floor);
  if (run.gateway.warnings) log(`\nThe gateway logged ${run.gateway.warnings} warning/error line(s); the last ones:\n${run.gateway.lastOutput()}`);
  log(`\nload average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

async function main(opts: BenchOptions, registerCleanup: (fn: () => Promise<void>) => void): Promise<boolean> {
  printHeader(opts);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-'));
  const gateway = new GatewayProcess({
    dataDir,
    port: await freePort(),
    pgPort: await freePort(),
    env: { WORKERS: String(opts.workers[0]) },
  });
  const http = new HttpClient(gateway.baseUrl, opts.concurrency);
  const abort = new AbortController();
  let sql: SqlCounter | null = null;
  let baseline: Baseline | null = null;
  let cleaned: Promise<void> | null = null;
  const cleanup = () =>
    (cleaned ??= (async () => {
      // Load first: a gateway stops only once its keep-alive connections fall quiet.
      abort.abort();
      await http.drain(10_000);
      http.close();
      await baseline?.close();
      await sql?.close();
      const postgres = gateway.postgresPid();
      await gateway.stop().catch((err: Error) => log(`error stopping the gateway: ${err.message}`));
      // The gateway stops its PostgreSQL on SIGTERM; make sure, without leaving a server behind.
      if (postgres !== null) {
        for (let i = 0; i < 100 && alive(postgres); i++) await sleep(100);
        if (alive(postgres)) {
          log(`PostgreSQL (pid ${postgres}) still ran 10 s after the gateway stopped; stopping it`);
          process.kill(postgres, 'SIGINT');
        }
      }
      rmSync(dataDir, { recursive: true, force: true });
    })());
  registerCleanup(cleanup);
  process.on('exit', () => gateway.killNow());
  try {
    const firstStart = await gateway.start();
    await enableStatementStats(gateway.databaseUrl('postgres'));
    await gateway.stop();
    const secondStart = await gateway.start();
    log(`  gateway on ${gateway.baseUrl}, pid ${gateway.pid}: first start (new database, demo workspace) ${(firstStart / 1000).toFixed(1)} s, restart ${(secondStart / 1000).toFixed(1)} s`);

    sql = await SqlCounter.open(gateway.databaseUrl());
    const meter = new Meter(gateway, sql);
    const run: Run = { opts, signal: abort.signal, gateway, meter, http, rows: [], rounds: [], roundErrors: 0, bank: [], guard: null };

    // What the gateway does on its own (job and webhook polling), to judge the counts by.
    const idleMs = opts.quick ? 1_000 : 3_000;
    await meter.start();
    await sleep(idleMs);
    const idle = await meter.stop();
    const backgroundPerSecond = idle.sql.statements / (idleMs / 1000);
    log(`  idle: ${fmtShort(backgroundPerSecond)} statements/s, gateway CPU ${fmtShort(idle.gatewayCpuMs / (idleMs / 1000))} ms/s`);

    let baselinePerSecond: number | null = null;
    if (opts.phases.has('baseline')) {
      baseline = await openBaseline(gateway);
      baselinePerSecond = await runBaseline(run, baseline);
      await baseline.close();
      baseline = null;
    }
    if (opts.phases.has('floor')) await runFloor(run, sql);
    for (const [i, workers] of opts.workers.entries()) {
      if (i > 0) {
        // The same database and demo workspace; only the number of gateway processes changes.
        await http.drain(10_000);
        await sql.close();
        await gateway.stop();
        gateway.settings.env = { WORKERS: String(workers) };
        log(`  gateway restarted with WORKERS=${workers} in ${((await gateway.start()) / 1000).toFixed(1)} s`);
        // The restart restarted PostgreSQL too: a new counting session and meter.
        sql = await SqlCounter.open(gateway.databaseUrl());
        run.meter = new Meter(gateway, sql);
      }
      const workersLabel = `${workers} worker${workers > 1 ? 's' : ''}`;
      await runGatewayPhases(run, (name) => (opts.workers.length > 1 ? `${name}, ${workersLabel}` : name));
      if (opts.rounds > 0 && opts.phases.has('baseline') && opts.phases.has('payment')) await runRounds(run, workersLabel);
      if (opts.phases.has('guard') && i === 0) {
        const { guardRounds: rounds, concurrency, warmupMs, durationMs, guardShoppers: shoppers } = opts;
        if (shoppers === 'new') log('  guard phase: every payment from an address and with a card of its own');
        run.guard = await runGuardPhase(run.gateway, run.http, { rounds, concurrency, warmupMs, durationMs, shoppers, onHalf: opts.showSql ? (label, usage, ops) => log(`  ${label}:\n${statementsPerOp(usage, ops, 8)}`) : undefined }, abort.signal, log, run.meter);
      }
      if (opts.phases.has('bank')) await runBank(run, opts.workers.length > 1 ? workersLabel : '');
    }

    let webhooks: WebhookResult | null = null;
    if (opts.phases.has('webhooks')) {
      const started = performance.now();
      webhooks = await runWebhookPhase(gateway, run.meter, opts.events, opts.webhookTimeoutMs, abort.signal, log);
      log(`  webhooks: ${fmt(webhooks.received)} of ${fmt(webhooks.events)} received, ${fmt(webhooks.perSecond, 0)}/s, last ${fmtShort(webhooks.delayMax / 1000)} s after due (phase ${((performance.now() - started) / 1000).toFixed(0)} s)`);
      if (opts.showSql) log(statementsPerOp(webhooks.usage, webhooks.rowsDelivered || 1));
    }
    printSummary(run, baselinePerSecond, webhooks, backgroundPerSecond);
    const errors = run.rows.reduce((sum, r) => sum + r.load.errors, run.roundErrors);
    const webhooksOk = !webhooks || (!webhooks.timedOut && webhooks.distinct === webhooks.events && webhooks.rowsDelivered === webhooks.events);
    if (errors) log(`\n${fmt(errors)} operation(s) failed; see the phase lines above for the first error of each`);
    if (!webhooksOk) log('\nnot every webhook notification was delivered and recorded as delivered');
    const bankOk = run.bank.every((rounds) => rounds.length > 0 && bankChecks(rounds, fmtShort).every((c) => c.met));
    if (!bankOk) log('\nFAIL: the bank phase missed a bound (the FAIL lines above)');
    return errors === 0 && webhooksOk && bankOk;
  } finally {
    await cleanup();
  }
}

let opts: BenchOptions | null;
try {
  opts = parseBenchArgs(process.argv.slice(2));
} catch (err) {
  console.error(`error: ${(err as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (!opts) {
  log(USAGE);
  process.exit(0);
}
let cleanup: (() => Promise<void>) | null = null;
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    log(`\n${signal}: stopping the gateway and its database, removing the temp dir…`);
    void (cleanup ?? (async () => {}))().finally(() => process.exit(130));
  });
}
try {
  const ok = await main(opts, (fn) => (cleanup = fn));
  process.exit(ok ? 0 : 1);
} catch (err) {
  if (!interrupted) console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(interrupted ? 130 : 1);
}
