// WORKERS=N (N > 1): `npm start` runs N gateway processes sharing the port (node:cluster), the
// database and the job queue, so both cores of a small machine serve requests. The primary owns
// the embedded PostgreSQL (when DATABASE_URL is not set) and the master key, forks the workers,
// replaces one that dies, and on a signal stops the workers first and the database last.
//
// Nothing else changes for a worker: it is an ordinary gateway (server, jobs, live events) given
// DATABASE_URL and GATEWAY_MASTER_KEY, and every part of a gateway already works with several
// processes on one database (row locks, SKIP LOCKED claims, LISTEN/NOTIFY, advisory-locked
// migrations, idempotency rows, a database-backed rate limiter).
import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import type { Config } from './config.ts';
import { detachEmbeddedSignalHooks, startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.ts';
import { loadMasterKey } from './master-key.ts';
import { createLogger, noteStopBegun } from './logger.ts';
import { serveClusterScrapes } from './observability/cluster-metrics.ts';

/** Set in a worker's environment: its number, 1..N. Worker 1 seeds the demo workspace and prints the banner. */
export const WORKER_INDEX_ENV = 'GATEWAY_WORKER_INDEX';

export const workerIndex = (): number | null => (cluster.isWorker ? Number(process.env[WORKER_INDEX_ENV]) || null : null);

/** Worker -> primary: started and listening. */
interface ReadyMessage {
  type: 'gateway-ready';
  port: number;
}

/** Called by a worker once its gateway listens. */
export function reportReady(port: number): void {
  const message: ReadyMessage = { type: 'gateway-ready', port };
  process.send?.(message);
}

/** The primary: starts the database, forks `config.WORKERS` workers, and stops them all on a signal. */
export async function runPrimary(config: Config): Promise<void> {
  const logger = createLogger(config.LOG_LEVEL);
  // The primary stops the embedded server itself, after the workers (see main.ts).
  detachEmbeddedSignalHooks();
  let embedded: EmbeddedDatabase | null = null;
  let stopping = false;
  const workers = new Map<number, Worker>();
  const ready = new Set<number>();

  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    noteStopBegun();
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
      process.stdout.write(`\n${signal} received, stopping ${workers.size} workers, then the database...\n`);
      void stopAll(0);
    });
  }

  const env: Record<string, string> = {};
  try {
    if (!config.DATABASE_URL) {
      const dir = path.join(config.dataDir, 'pg');
      embedded = await startEmbeddedPostgres({ dir, port: config.EMBEDDED_PG_PORT, log: logger.warn });
      env.DATABASE_URL = embedded.url;
      logger.info('embedded PostgreSQL started', { port: config.EMBEDDED_PG_PORT, dir });
      // With DATABASE_URL set, a worker would take the embedded server for an external one (and in
      // production demand GATEWAY_MASTER_KEY): the key read or generated once here goes with it.
      env.GATEWAY_MASTER_KEY = loadMasterKey(config, logger).toString('hex');
    }
  } catch (err) {
    process.stderr.write(`The gateway could not start: ${(err as Error)?.message ?? String(err)}\n`);
    await embedded?.stop().catch(() => {});
    process.exit(1);
  }

  const fork = (index: number) => {
    const worker = cluster.fork({ ...env, [WORKER_INDEX_ENV]: String(index) });
    workers.set(index, worker);
    worker.on('message', (m: ReadyMessage) => {
      if (m?.type !== 'gateway-ready') return;
      ready.add(index);
      if (ready.size === config.WORKERS) logger.info('workers listening', { workers: config.WORKERS, port: m.port });
    });
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      if (!ready.has(index)) {
        // A worker that cannot start (port taken, database refused) would fail again: stop everything.
        process.stderr.write(`The gateway could not start: worker ${index} exited (${signal ?? code}) before it listened.\n`);
        void stopAll(1);
        return;
      }
      ready.delete(index);
      logger.error('worker died; starting another', { worker: index, code, signal });
      fork(index);
    });
  };
  serveClusterScrapes();
  for (let i = 1; i <= config.WORKERS; i++) fork(i);
}
