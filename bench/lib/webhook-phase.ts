// Webhook deliveries from the running gateway to a local receiver: `events` events are recorded as
// domain code records them (one notification each for one address that selected every event),
// first for an hour ahead so none is sent early; then a single UPDATE makes all of them due at
// the same instant, as a burst of events 30 s earlier would. Measured from that instant until the
// receiver has every notification: deliveries per second and the delay from due to receipt.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { GatewayProcess } from './gateway-process.ts';
import type { Meter, Usage } from './meter.ts';
import { startReceiver } from './receiver.ts';
import { percentile, sleep } from './stats.ts';

/** Events per recording transaction, and recording transactions in flight. */
const BATCH = 250;
const PARALLEL_BATCHES = 4;

export interface WebhookResult {
  events: number;
  received: number;
  distinct: number;
  rowsDelivered: number;
  recordSeconds: number;
  /** From due to the last receipt. */
  seconds: number;
  perSecond: number;
  delayP50: number;
  delayP99: number;
  delayMax: number;
  usage: Usage;
  timedOut: boolean;
}

/** The domain's own recordEvent, loaded here only: Prisma is slow to import and this phase alone needs it. */
async function recordEvents(databaseUrl: string, workspaceId: string, events: number, at: Date): Promise<void> {
  const { createDb } = await import('../../src/db/client.ts');
  const { EVENT_KINDS, recordEvent } = await import('../../src/domain/events.ts');
  const db = createDb(databaseUrl, { max: PARALLEL_BATCHES });
  try {
    const batches = Array.from({ length: Math.ceil(events / BATCH) }, (_, b) => Math.min(BATCH, events - b * BATCH));
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(PARALLEL_BATCHES, batches.length) }, async () => {
        while (next < batches.length) {
          const b = next++;
          await db.$transaction(
            async (tx) => {
              for (let i = 0; i < batches[b]!; i++) {
                const kind = EVENT_KINDS[(b * BATCH + i) % EVENT_KINDS.length]!;
                await recordEvent(tx, { workspaceId, kind, recordToken: randomUUID(), transactionToken: randomUUID(), linkPaymentToken: randomUUID() }, at);
              }
            },
            { timeout: 300_000, maxWait: 60_000 },
          );
        }
      }),
    );
  } finally {
    await db.$disconnect();
  }
}

export async function runWebhookPhase(gateway: GatewayProcess, meter: Meter, events: number, timeoutMs: number, signal: AbortSignal, log: (line: string) => void): Promise<WebhookResult> {
  const receiver = await startReceiver();
  const admin = new pg.Client({ connectionString: gateway.databaseUrl() });
  admin.on('error', () => {});
  try {
    await admin.connect();
    // The benchmark's own queries (the due UPDATE, the delivered count) are not the gateway's work.
    await admin.query(`SET pg_stat_statements.track = 'none'`);
    const demo = gateway.demoCredentials();
    const address = await gateway.cli<{ id: string }>(['webhooks', 'add', demo.team, `${receiver.url}/hooks/gateway`, '--events', 'all']);
    const { rows } = await admin.query<{ id: string }>('SELECT id FROM "Workspace" WHERE slug = $1', [demo.team]);

    const recordStart = performance.now();
    await recordEvents(gateway.databaseUrl(), rows[0]!.id, events, new Date(Date.now() + 3_600_000));
    const recordSeconds = (performance.now() - recordStart) / 1000;
    log(`  recorded ${events.toLocaleString('en-US')} events in ${recordSeconds.toFixed(1)} s`);
    // Longer than one delivery poll (1 s by default): nothing may arrive before it is due.
    await sleep(1_500);
    if (receiver.receipts.length > 0) throw new Error(`${receiver.receipts.length} notification(s) arrived before they were due`);

    await meter.start();
    const due = await admin.query(`UPDATE "Notification" SET "nextAttemptAt" = (now() AT TIME ZONE 'UTC') WHERE "addressId" = $1 AND status = 'pending'`, [address.id]);
    const dueAt = performance.now();
    if (due.rowCount !== events) throw new Error(`expected ${events} queued notifications, found ${due.rowCount}`);

    let lastReport = dueAt;
    let timedOut = false;
    while (receiver.receipts.length < events) {
      if (signal.aborted) throw new Error('interrupted');
      const now = performance.now();
      if (now - dueAt > timeoutMs) {
        timedOut = true;
        break;
      }
      if (now - lastReport >= 10_000) {
        log(`  … ${receiver.receipts.length.toLocaleString('en-US')} delivered after ${((now - dueAt) / 1000).toFixed(0)} s`);
        lastReport = now;
      }
      await sleep(20);
    }
    const receipts = receiver.receipts.slice();
    // The receipt comes before the attempt is written; the counters include those writes.
    const count = async () =>
      Number((await admin.query<{ n: string }>(`SELECT count(*)::text AS n FROM "Notification" WHERE "addressId" = $1 AND status = 'delivered'`, [address.id])).rows[0]!.n);
    let rowsDelivered = await count();
    const deadline = performance.now() + 60_000;
    while (!timedOut && rowsDelivered < events && performance.now() < deadline) {
      await sleep(100);
      rowsDelivered = await count();
    }
    const usage = await meter.stop();

    const delays = receipts.map((r) => r.at - dueAt).sort((a, b) => a - b);
    const seconds = receipts.length ? (Math.max(...receipts.map((r) => r.at)) - dueAt) / 1000 : (performance.now() - dueAt) / 1000;
    return {
      events,
      received: receipts.length,
      distinct: new Set(receipts.map((r) => r.id)).size,
      rowsDelivered,
      recordSeconds,
      seconds,
      perSecond: receipts.length / seconds,
      delayP50: percentile(delays, 50),
      delayP99: percentile(delays, 99),
      delayMax: delays.length ? delays[delays.length - 1]! : NaN,
      usage,
      timedOut,
    };
  } finally {
    await admin.end().catch(() => {});
    await receiver.close();
  }
}
