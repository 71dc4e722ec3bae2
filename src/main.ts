// npm start: config -> database (embedded or DATABASE_URL) -> migrate -> server + jobs.
// With WORKERS > 1 this process becomes the cluster's primary (src/cluster.ts) and each worker
// runs the rest of this file.
import cluster from 'node:cluster';
import { loadConfig } from './config.ts';
import { reportReady, runPrimary, workerIndex } from './cluster.ts';
import { detachEmbeddedSignalHooks } from './db/embedded.ts';
import { startGateway, type Gateway } from './gateway.ts';
import { noteStopBegun } from './logger.ts';

const config = loadConfig();
if (config.WORKERS > 1 && cluster.isPrimary) {
  await runPrimary(config);
} else {
  await serve();
}

async function serve(): Promise<void> {
  // This process stops the gateway itself on a signal: jobs, then the server, the database
  // connections and last the embedded PostgreSQL, then exits 0.
  detachEmbeddedSignalHooks();

  let gateway: Gateway | null = null;
  let stopping = false;
  let firstSignalAt = 0;
  /**
   * A signal sent to the whole process group (Ctrl+C in a terminal, `kill -- -<pgid>`) reaches this
   * process twice under npm: once directly and once forwarded by npm. A repeat within this window
   * is that same stop, not a second Ctrl+C asking to hurry.
   */
  const REPEAT_IS_SAME_STOP_MS = 1_500;
  async function shutdown(signal: NodeJS.Signals): Promise<void> {
    if (stopping && Date.now() - firstSignalAt < REPEAT_IS_SAME_STOP_MS) return;
    if (stopping) {
      process.stdout.write(`${signal} received again, exiting without waiting.\n`);
      process.exit(1); // the 'exit' hook still signals the embedded PostgreSQL to stop
    }
    stopping = true;
    noteStopBegun();
    firstSignalAt = Date.now();
    // In a cluster the primary says it once for all workers.
    if (workerIndex() === null) process.stdout.write(`\n${signal} received, stopping the server, the jobs and the database...\n`);
    // A signal during start-up: the start finishes (or fails and cleans up) first, then stops.
    if (!gateway) return;
    await gateway.stop();
    process.exit(0);
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, (s) => void shutdown(s));

  try {
    // In a cluster only worker 1 seeds the demo workspace and prints its banner.
    gateway = await startGateway(config, { seedDemo: (workerIndex() ?? 1) === 1 });
  } catch (err) {
    process.stderr.write(`The gateway could not start: ${(err as Error)?.message ?? String(err)}\n`);
    process.exit(1);
  }
  if (stopping) {
    await gateway.stop();
    process.exit(0);
  }
  reportReady(gateway.port);
}
