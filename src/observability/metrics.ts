// Prometheus metrics at GET /metrics. Request and webhook-attempt figures are counted by each
// process; payments, the webhook queue and job lag are read from the database at scrape time, so
// every process reports the same shared figures; pool use is each process's. With WORKERS > 1 a
// scrape shows the sum over the workers, the shared figures once (cluster-metrics.ts).
import { Prisma } from '../generated/prisma/client.ts';
import client from 'prom-client';
import { scrape, shareWithCluster } from './cluster-metrics.ts';
import type { Db } from '../db/client.ts';
import { poolOf } from '../db/client.ts';
import { queryRows } from '../db/raw.ts';
import type pg from 'pg';

export interface Metrics {
  registry: client.Registry;
  /** What GET /metrics answers: the whole gateway's figures, all workers together. */
  text(): Promise<string>;
  /** One answered HTTP request. */
  observeRequest(operation: string, status: number, seconds: number): void;
  /** One webhook attempt: its outcome and how late it started after it was due. */
  observeWebhookAttempt(outcome: 'delivered' | 'retry' | 'failed', lagSeconds: number | null): void;
  /** One 3-D Secure callback its connector rejected (src/domain/payments/callback-rejections.ts). */
  observeCallbackRejection(provider: string, cause: string): void;
  /** One payment attempt the risk decision refused, by a rule that refused it. */
  observeRiskStopped(rule: string): void;
}

/** Every series the gateway exports starts with it, prom-client's default metrics too. */
export const METRIC_PREFIX = 'gateway_';
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LAG_BUCKETS = [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 900];

export function createMetrics(db: Db): Metrics {
  const registry = new client.Registry();
  // prom-client's own names already say what they are (process_cpu_user_seconds_total,
  // nodejs_heap_size_used_bytes): the prefix only puts them beside the gateway's other series.
  client.collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });
  const requests = new client.Counter({ name: 'gateway_http_requests_total', help: 'HTTP requests answered, by operation and status', labelNames: ['operation', 'status'], registers: [registry] });
  const latency = new client.Histogram({ name: 'gateway_http_request_duration_seconds', help: 'Time to answer an HTTP request, by operation and status', labelNames: ['operation', 'status'], buckets: LATENCY_BUCKETS, registers: [registry] });
  const attempts = new client.Counter({ name: 'gateway_webhook_attempts_total', help: 'Webhook delivery attempts, by outcome (retry: failed, another attempt is queued)', labelNames: ['outcome'], registers: [registry] });
  const rejections = new client.Counter({ name: 'gateway_callback_rejections_total', help: '3-D Secure callbacks the connector did not take as the bank\'s answer, by provider and cause (signature: check the store key)', labelNames: ['provider', 'cause'], registers: [registry] });
  const riskStopped = new client.Counter({ name: 'gateway_risk_blocked_total', help: 'Payment attempts the risk decision refused before any bank was asked, by the rule that refused them (luhn, ip_cards, ip_declines, target_declines, workspace_declines, <source>_cooldown, ip_cards_3ds)', labelNames: ['rule'], registers: [registry] });
  const attemptLag = new client.Histogram({ name: 'gateway_webhook_delivery_lag_seconds', help: 'How late a webhook attempt started after it was due', buckets: LAG_BUCKETS, registers: [registry] });

  new client.Gauge({
    name: 'gateway_payments', aggregator: 'first', help: 'Payments in the database, by status (outcome)', labelNames: ['status'], registers: [registry],
    async collect() {
      const rows = await db.$queryRaw<{ status: string; n: bigint }[]>`SELECT status::text AS status, count(*) AS n FROM "Payment" GROUP BY status`;
      this.reset();
      for (const r of rows) this.set({ status: r.status }, Number(r.n));
    },
  });
  new client.Gauge({
    name: 'gateway_webhook_queue_depth', aggregator: 'first', help: 'Webhook notifications waiting for an attempt (due now or later)', registers: [registry],
    async collect() {
      const [row] = await queryRows<{ n: bigint }>(db, Prisma.sql`SELECT count(*) AS n FROM "Notification" WHERE status = 'pending'`);
      this.set(Number(row?.n ?? 0));
    },
  });
  new client.Gauge({
    name: 'gateway_webhook_queue_lag_seconds', aggregator: 'first', help: 'How long the oldest due webhook notification has waited past its time (0 when none is due)', registers: [registry],
    async collect() {
      const [row] = await queryRows<{ lag: number | null }>(db, Prisma.sql`
        SELECT EXTRACT(EPOCH FROM (now() AT TIME ZONE 'UTC') - min("nextAttemptAt"))::float8 AS lag
        FROM "Notification" WHERE status = 'pending' AND "nextAttemptAt" <= (now() AT TIME ZONE 'UTC')`);
      this.set(Math.max(0, row?.lag ?? 0));
    },
  });
  new client.Gauge({
    name: 'gateway_job_lag_seconds', aggregator: 'first', help: 'How long the oldest due, unlocked job has waited past its time (0 when none is due)', registers: [registry],
    async collect() {
      const [row] = await queryRows<{ lag: number | null }>(db, Prisma.sql`
        SELECT EXTRACT(EPOCH FROM now() - min(next_run_at))::float8 AS lag
        FROM agenda.agenda_jobs WHERE next_run_at <= now() AND locked_at IS NULL AND NOT coalesce(disabled, false)`);
      this.set(Math.max(0, row?.lag ?? 0));
    },
  });
  new client.Gauge({
    name: 'gateway_payment_account_health', aggregator: 'first', labelNames: ['account', 'provider', 'state'], registers: [registry],
    help: 'Routing health of each live payment account: 1 for its state (healthy, degraded: out of routing, probing: on probation), 0 for the others',
    async collect() {
      const rows = await queryRows<{ id: string; provider: string; health: string }>(db, Prisma.sql`SELECT id, provider, health::text AS health FROM "PaymentAccount" WHERE "deletedAt" IS NULL`);
      this.reset();
      for (const r of rows) for (const state of ['healthy', 'degraded', 'probing']) this.set({ account: r.id, provider: r.provider, state }, r.health === state ? 1 : 0);
    },
  });
  const pool = poolOf(db);
  new client.Gauge({
    name: 'gateway_db_pool_connections', help: 'Database connections of the gateway processes together, by state (total, idle, waiting: requests queued for one)', labelNames: ['state'], registers: [registry],
    collect() {
      if (!pool) return;
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, waitingForConnection(pool));
      this.set({ state: 'max' }, pool.options.max ?? 10);
    },
  });

  shareWithCluster(registry);
  return {
    registry,
    text: () => scrape(registry),
    observeRequest(operation, status, seconds) {
      const labels = { operation, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    observeRiskStopped(rule) {
      riskStopped.inc({ rule });
    },
    observeWebhookAttempt(outcome, lagSeconds) {
      attempts.inc({ outcome });
      if (lagSeconds !== null) attemptLag.observe(Math.max(0, lagSeconds));
    },
    observeCallbackRejection(provider, cause) {
      rejections.inc({ provider, cause });
    },
  };
}

/**
 * Callers waiting for a connection that none is free for. pg-pool queues every checkout, even one
 * an idle connection will serve on the next tick: a scrape's own statements (the figures above are
 * read while the pool figures are taken) sat there and read as "waiting" on an idle gateway. Those
 * that idle connections are about to serve are not waiting.
 */
export function waitingForConnection(pool: Pick<pg.Pool, 'waitingCount' | 'idleCount'>): number {
  return Math.max(0, pool.waitingCount - pool.idleCount);
}
