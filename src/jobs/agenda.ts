// The job runner: Agenda 6 on the gateway's PostgreSQL (its table lives in the `agenda` schema,
// created by a migration). Job modules register themselves through `defineJobs`.
import { Agenda, type Job } from 'agenda';
import { PostgresBackend } from '@agendajs/postgres-backend';
import pg from 'pg';
import { keepClientErrorsHandled } from '../db/client.ts';
import { releaseLocksOfFailedRuns } from './lock-release.ts';
import { isShutdownLoss, logConnectionLoss, type Logger } from '../logger.ts';
import { currentRequestId, runInContext } from '../observability/context.ts';
import { noTracing } from '../observability/tracing.ts';
import type { Tracing } from '../observability/tracing-shape.ts';

export interface JobRunner {
  agenda: Agenda;
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly running: boolean;
}

export interface JobRunnerOptions {
  databaseUrl: string;
  mongoUrl?: string;
  processEvery: number;
  logger: Logger;
  name?: string;
  /** A span per job run when an OTLP endpoint is configured. */
  tracing?: Tracing;
  /** How long one of the runner's own queries may take before it counts as lost (default 15 s). */
  queryTimeoutMs?: number;
}

export async function createJobRunner(opts: JobRunnerOptions): Promise<JobRunner> {
  const { agenda, close } = opts.mongoUrl ? await mongoAgenda(opts) : postgresAgenda(opts);
  // Agenda connects from its constructor; awaiting `ready` turns a connection failure into a
  // rejected start instead of an unhandled rejection.
  await agenda.ready.catch(async (err: Error) => {
    await close();
    throw err;
  });
  // Jobs this process is running, so a stop can wait for them (Agenda's drain leaves fetched
  // jobs locked for the whole lock lifetime).
  const active = new Set<Job>();
  let stopping = false;
  agenda.on('start', (job: Job) => active.add(job));
  agenda.on('complete', (job: Job) => active.delete(job));
  agenda.on('error', (err: Error & { code?: string }) => {
    // PostgreSQL stopping with the rest of the process group (Ctrl+C) ends the runner's connection
    // mid-poll: part of a stop (info), not a failure. Agenda may pass the message without the code.
    if (isShutdownLoss(err)) logConnectionLoss(opts.logger, 'job runner connection closed by PostgreSQL', err);
    // A poll or a reconnect that Agenda began before its stop and that found our pool ended.
    else if (stopping && ENDED_POOL.test(err.message)) opts.logger.info('job runner found its pool closed by the stop', { error: err.message });
    else opts.logger.error('job runner error', { error: err.message });
  });
  agenda.on('fail', (err: Error, job: Job) => {
    // A run cut short by the database stopping is retried at the next start; not a job failure.
    if (isShutdownLoss(err)) opts.logger.info('job run ended by the database stopping', { job: job.attrs.name, error: err.message.trim().split('\n').pop() });
    else opts.logger.warn('job failed', { job: job.attrs.name, error: err.message });
  });
  logJobsInContext(agenda, opts.logger, opts.tracing ?? noTracing);
  let running = false;
  return {
    agenda,
    get running() {
      return running;
    },
    async start() {
      await agenda.start();
      running = true;
    },
    async stop() {
      running = false;
      stopping = true;
      await agenda.stop(false);
      const deadline = Date.now() + 15_000;
      while (active.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await close();
    },
  };
}

/**
 * A one-time job (a payment's 3D expiry or reconciliation, a link receipt) is deleted once it
 * succeeds, so the job table holds what is still to run, failed jobs and the recurring ones,
 * not one row per payment ever made. What a job did is in its records and the log.
 */
const REMOVE_ON_COMPLETE = true;

/** pg-pool's error for a query on a pool that end() has closed. */
const ENDED_POOL = /Cannot use a pool after calling end on the pool/;

/**
 * The runner's own statements are small (take a job, save its state): one that has not answered in
 * QUERY_TIMEOUT_MS is on a connection that is gone (a database machine that vanished mid-failover
 * without closing it), and waiting longer would hold the job's lock with it. PostgreSQL cancels a
 * statement a little earlier itself; the client-side limit covers a server that cannot answer at
 * all, and TCP keepalive finds such a connection while it is idle.
 */
const QUERY_TIMEOUT_MS = 15_000;
const KEEPALIVE_IDLE_MS = 10_000;

function postgresAgenda(opts: JobRunnerOptions): { agenda: Agenda; close: () => Promise<void> } {
  const queryTimeout = opts.queryTimeoutMs ?? QUERY_TIMEOUT_MS;
  // Our own pool: Agenda's has no error handler, and a dropped connection would crash us.
  const pool = new pg.Pool({
    connectionString: opts.databaseUrl,
    max: 5,
    options: `-c search_path=agenda -c statement_timeout=${Math.max(queryTimeout - 1_000, 500)}`,
    query_timeout: queryTimeout,
    connectionTimeoutMillis: queryTimeout,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
  });
  pool.on('error', (err) => logConnectionLoss(opts.logger, 'agenda pool error', err));
  keepClientErrorsHandled(pool);
  const backend = new PostgresBackend({ pool, ensureSchema: false });
  (backend.notificationChannel as unknown as { on?: (e: string, f: (err: Error) => void) => void } | undefined)?.on?.('error', (err) =>
    logConnectionLoss(opts.logger, 'agenda notification error', err),
  );
  const agenda = new Agenda({ backend, processEvery: opts.processEvery, name: opts.name, defaultLockLifetime: 60_000, removeOnComplete: REMOVE_ON_COMPLETE });
  const locks = releaseLocksOfFailedRuns(agenda, pool, opts.logger);
  // The channel reconnects after a lost connection (the database stopping with us, e.g. Ctrl+C
  // reaching the whole process group): disconnected first, it cannot retry on an ended pool.
  const channel = backend.notificationChannel as unknown as { disconnect?: () => Promise<void> } | undefined;
  return { agenda, close: async () => {
    locks.stop();
    await channel?.disconnect?.().catch(() => {});
    await pool.end();
  } };
}

/** Selected by AGENDA_MONGO_URL for users who run MongoDB; install `@agendajs/mongo-backend` then. */
async function mongoAgenda(opts: JobRunnerOptions): Promise<{ agenda: Agenda; close: () => Promise<void> }> {
  const moduleName = '@agendajs/mongo-backend';
  const mod = (await import(moduleName).catch(() => {
    throw new Error(`AGENDA_MONGO_URL is set but ${moduleName} is not installed (npm install ${moduleName} mongodb)`);
  })) as { MongoBackend: new (cfg: { address: string }) => PostgresBackend };
  const agenda = new Agenda({ backend: new mod.MongoBackend({ address: opts.mongoUrl! }) as never, processEvery: opts.processEvery, removeOnComplete: REMOVE_ON_COMPLETE });
  return { agenda, close: async () => {} };
}

/**
 * Every job runs in a log context: its name, and the request id of the request that scheduled it
 * (kept in the job data), so its log lines join the request's; and, with tracing on, in a span.
 * Wraps `define` once, before any job is defined.
 */
function logJobsInContext(agenda: Agenda, logger: Logger, tracing: Tracing): void {
  const define = agenda.define.bind(agenda) as (name: string, fn: (job: Job) => Promise<unknown>, options?: unknown) => unknown;
  (agenda as { define: unknown }).define = (name: string, fn: (job: Job) => Promise<unknown>, options?: unknown) =>
    define(name, (job: Job) => {
      const requestId = (job.attrs.data as { requestId?: unknown } | undefined)?.requestId;
      const fields = typeof requestId === 'string' ? { job: name, request_id: requestId } : { job: name };
      return runInContext({ fields, logger }, () => tracing.job(name, fields.request_id, () => fn(job)));
    }, options);
}

/**
 * The domain's Scheduler on Agenda; `key` is stored in the job data and made unique. A job
 * scheduled during a request keeps its request id.
 */
export function agendaScheduler(agenda: Agenda): import('../domain/scheduler.ts').Scheduler {
  return {
    async schedule(name, at, data, key) {
      const requestId = currentRequestId();
      const withRequest = requestId ? { ...data, requestId } : data;
      const job = agenda.create(name, key ? { ...withRequest, key } : withRequest);
      if (key) job.unique({ 'data.key': key });
      await job.schedule(at).save();
    },
  };
}
