// `npm start` always runs this primary, which supervises the gateway processes (workers): it owns
// the embedded PostgreSQL (when DATABASE_URL is not set) and the master key, migrates and grants
// the serving role as the owner of the schema, forks WORKERS workers sharing the port
// (node:cluster), the database and the job queue, replaces a worker that dies (a crash, the OOM
// killer, a V8 heap abort), and on a signal stops the workers first and the database last. With
// WORKERS=1 (the default) it forks one worker: a fatal error in the serving process never leaves
// the gateway down, and never leaves its PostgreSQL orphaned.
//
// Nothing else changes for a worker: it is an ordinary gateway (server, jobs, live events) given
// DATABASE_URL (the serving role's) and GATEWAY_MASTER_KEY, and every part of a gateway already
// works with several processes on one database (row locks, SKIP LOCKED claims, LISTEN/NOTIFY,
// advisory-locked migrations, idempotency rows, a database-backed rate limiter).
import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import { publicBaseUrl, type Config } from './config.ts';
import { detachEmbeddedSignalHooks, startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.ts';
import { configuredUrls, prepareDatabase, type DatabaseUrls } from './db/migrate.ts';
import { loadMasterKey } from './master-key.ts';
import { createLogger, noteStopBegun } from './logger.ts';
import { serveClusterScrapes } from './observability/cluster-metrics.ts';
import { assertPortFree } from './http/port.ts';
import { addressesBanner } from './http/start-page.ts';

/** Set in a worker's environment: its number, 1..N. Worker 1 seeds the demo workspace and prints the banner. */
export const WORKER_INDEX_ENV = 'GATEWAY_WORKER_INDEX';

export const workerIndex = (): number | null => (cluster.isWorker ? Number(process.env[WORKER_INDEX_ENV]) || null : null);

/** Worker -> primary: started and listening, or could not start (with the one-line reason). */
type WorkerMessage = { type: 'gateway-ready'; port: number } | { type: 'gateway-failed'; reason: string };

/** Called by a worker once its gateway listens. */
export function reportReady(port: number): void {
  process.send?.({ type: 'gateway-ready', port } satisfies WorkerMessage);
}

/** Called by a worker whose gateway could not start; the primary prints the reason once. */
export function reportStartFailure(reason: string): Promise<void> {
  return new Promise((resolve) => (process.send ? process.send({ type: 'gateway-failed', reason } satisfies WorkerMessage, undefined, {}, () => resolve()) : resolve()));
}

/**
 * How often a worker that keeps dying is replaced before the primary gives up (exit 1, for the
 * container's own restart policy). The pauses (0.5, 1, 2, 4, 8, 16 s) add up to about half a
 * minute, so a replacement that cannot start while the database is briefly away gets its chance.
 */
export const WORKER_RESTARTS = { maxDeaths: 6, windowMs: 10 * 60_000, firstDelayMs: 500, maxDelayMs: 30_000 };

/** The primary: starts the database, forks `config.WORKERS` workers, replaces dead ones, and stops them all on a signal. */
export async function runPrimary(config: Config): Promise<void> {
  const logger = createLogger(config.LOG_LEVEL, undefined, config.logFormat);
  // The primary stops the embedded server itself, after the workers.
  detachEmbeddedSignalHooks();
  let embedded: EmbeddedDatabase | null = null;
  let stopping = false;
  const workers = new Map<number, Worker>();
  const ready = new Set<number>();
  /** The addresses are printed once, when every worker first listens (not after a replacement). */
  let announced = false;
  /** Workers that have listened once: one that dies later is replaced; one that never did fails the start. */
  const started = new Set<number>();
  const deaths: number[] = [];

  const stopAll = async (code: number, reason?: string) => {
    if (stopping) return;
    stopping = true;
    noteStopBegun();
    if (reason) process.stderr.write(`${reason}\n`);
    // A group Ctrl+C reached the workers too; a SIGTERM to the primary alone reaches them here.
    // Each worker stops its server, jobs and connections, then exits.
    const exits = [...workers.values()].map((w) => (w.isDead() ? Promise.resolve() : new Promise<void>((resolve) => w.once('exit', () => resolve()))));
    for (const w of workers.values()) if (!w.isDead()) w.process.kill('SIGTERM');
    await Promise.all(exits);
    await embedded?.stop().catch((err: Error) => logger.info('stop step found the database stopping', { error: err.message }));
    process.exit(code);
  };
  let firstSignalAt = 0;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      // npm forwards the group's signal a second time; only a later one asks to hurry.
      if (stopping && Date.now() - firstSignalAt > 1_500) process.exit(1);
      if (stopping) return;
      firstSignalAt = Date.now();
      const what = config.WORKERS === 1 ? 'the server, the jobs' : `${config.WORKERS} workers`;
      process.stdout.write(`\n${signal} received, stopping ${what}, then the database...\n`);
      void stopAll(0);
    });
  }

  // The primary decides on the demo workspace from the settings it was started with: a worker is
  // given DATABASE_URL (the embedded server's), which alone would mean "no demo".
  const env: Record<string, string> = { SEED_DEMO: String(config.seedDemo) };
  try {
    // Before the database starts: a port that is taken would fail every worker after the migrations.
    await assertPortFree(config.PORT, config.HOST);
    let urls: DatabaseUrls;
    if (config.DATABASE_URL) {
      urls = configuredUrls(config.DATABASE_URL, config.DATABASE_OWNER_URL);
    } else {
      const dir = path.join(config.dataDir, 'pg');
      embedded = await startEmbeddedPostgres({
        dir,
        port: config.EMBEDDED_PG_PORT,
        log: logger.warn,
        onGiveUp: () => void stopAll(1, 'The gateway stopped: the embedded PostgreSQL kept dying and was not started again.'),
      });
      urls = embedded.urls;
      logger.info('embedded PostgreSQL started', { port: config.EMBEDDED_PG_PORT, dir });
      // With DATABASE_URL set, a worker would take the embedded server for an external one (and in
      // production demand GATEWAY_MASTER_KEY): the key read or generated once here goes with it.
      env.GATEWAY_MASTER_KEY = loadMasterKey(config, logger).toString('hex');
    }
    // Migrated and the serving role granted here, once: a worker gets the serving role's URL alone
    // (it only checks that nothing is pending), so no process that serves holds the owner's password.
    const { applied } = await prepareDatabase(urls);
    if (applied.length) logger.info('migrations applied', { applied });
    env.DATABASE_URL = urls.serving;
    env.DATABASE_OWNER_URL = '';
  } catch (err) {
    process.stderr.write(`The gateway could not start: ${oneLine(err)}\n`);
    await embedded?.stop().catch(() => {});
    process.exit(1);
  }

  /** A pause before the replacement that grows with each recent death; null once they are used up. */
  const replacementDelay = (): number | null => {
    const now = Date.now();
    deaths.push(now);
    while (deaths.length && deaths[0]! < now - WORKER_RESTARTS.windowMs) deaths.shift();
    if (deaths.length > WORKER_RESTARTS.maxDeaths) return null;
    return Math.min(WORKER_RESTARTS.firstDelayMs * 2 ** (deaths.length - 1), WORKER_RESTARTS.maxDelayMs);
  };

  const fork = (index: number) => {
    const worker = cluster.fork({ ...env, [WORKER_INDEX_ENV]: String(index) });
    workers.set(index, worker);
    let failure: string | null = null;
    worker.on('message', (m: WorkerMessage) => {
      if (m?.type === 'gateway-failed') failure = m.reason;
      if (m?.type !== 'gateway-ready') return;
      ready.add(index);
      if (started.has(index)) logger.info('worker started again', { worker: index, pid: worker.process.pid });
      started.add(index);
      if (ready.size !== config.WORKERS) return;
      logger.info('workers listening', { workers: config.WORKERS, port: m.port });
      // For a person at a terminal or trying the demo; a process whose output a log collector
      // reads gets JSON lines only (the addresses are in the workers' 'gateway listening' lines).
      if (!announced && (config.seedDemo || config.logFormat === 'pretty')) process.stdout.write(addressesBanner(publicBaseUrl(config, m.port)));
      announced = true;
    });
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      ready.delete(index);
      if (!started.has(index)) {
        // The first start of a worker failed (port taken, database refused): it would fail again.
        void stopAll(1, `The gateway could not start: ${failure ?? `worker ${index} exited (${signal ?? code}) before it listened.`}`);
        return;
      }
      const delay = replacementDelay();
      if (delay === null) {
        logger.error('worker keeps dying; stopping the gateway', { worker: index, code, signal, deaths: deaths.length, window_ms: WORKER_RESTARTS.windowMs });
        void stopAll(1, `The gateway stopped: worker ${index} died ${deaths.length} times within ${WORKER_RESTARTS.windowMs / 60_000} minutes (last: ${signal ?? `exit ${code}`}).`);
        return;
      }
      logger.error('worker died; starting another', { worker: index, code, signal, reason: failure ?? undefined, attempt: deaths.length, of: WORKER_RESTARTS.maxDeaths, delay_ms: delay });
      setTimeout(() => stopping || fork(index), delay);
    });
  };
  serveClusterScrapes();
  for (let i = 1; i <= config.WORKERS; i++) fork(i);
}

/** An error as one line: a start-up failure is reported as a sentence, never a stack trace. */
export function oneLine(err: unknown): string {
  return ((err as Error)?.message ?? String(err)).trim().replace(/:\s*\n\s*/g, ': ').replace(/\s*\n\s*/g, '; ');
}
