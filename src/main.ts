// npm start: config -> the primary (src/cluster.ts: embedded PostgreSQL, master key, supervision)
// -> WORKERS gateway workers (one by default), each running serve() below: migrate, server, jobs.
// The primary replaces a worker that dies, so a fatal error in the serving process (a crash, a V8
// heap abort, the OOM killer) never leaves the gateway down.
import cluster from 'node:cluster';
import { assertStartable, loadConfig, type Config } from './config.ts';
import { oneLine, reportReady, reportStartFailure, runPrimary, workerIndex } from './cluster.ts';
import { detachEmbeddedSignalHooks } from './db/embedded.ts';
import { startGateway, type Gateway } from './gateway.ts';
import { noteStopBegun } from './logger.ts';

let config: Config;
try {
  config = loadConfig();
  assertStartable(config);
} catch (err) {
  // A bad setting: one line naming it, no stack trace.
  process.stderr.write(`The gateway could not start: ${oneLine(err)}\n`);
  process.exit(1);
}
if (cluster.isPrimary) {
  await runPrimary(config);
} else {
  await serve(config);
}

async function serve(config: Config): Promise<void> {
  // This process stops the gateway itself on a signal: jobs, then the server and the database
  // connections, then exits 0 (the primary stops the embedded PostgreSQL after the workers).
  detachEmbeddedSignalHooks();

  let gateway: Gateway | null = null;
  let stopping = false;
  let firstSignalAt = 0;
  /**
   * A signal sent to the whole process group (Ctrl+C in a terminal, `kill -- -<pgid>`) reaches this
   * process more than once: directly, forwarded by npm, and from the primary. A repeat within this
   * window is that same stop, not a second Ctrl+C asking to hurry.
   */
  const REPEAT_IS_SAME_STOP_MS = 1_500;
  async function shutdown(signal: NodeJS.Signals): Promise<void> {
    if (stopping && Date.now() - firstSignalAt < REPEAT_IS_SAME_STOP_MS) return;
    if (stopping) {
      process.stdout.write(`${signal} received again, exiting without waiting.\n`);
      process.exit(1);
    }
    stopping = true;
    noteStopBegun();
    firstSignalAt = Date.now();
    // A signal during start-up: the start finishes (or fails and cleans up) first, then stops.
    if (!gateway) return;
    await gateway.stop();
    process.exit(0);
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, (s) => void shutdown(s));

  try {
    // Only worker 1 seeds the demo workspace (when the settings ask for one) and prints its banner.
    gateway = await startGateway(config, { seedDemo: config.seedDemo && (workerIndex() ?? 1) === 1 });
  } catch (err) {
    // The primary prints the reason once (several workers fail alike) and stops the database.
    await reportStartFailure(oneLine(err));
    process.exit(1);
  }
  if (stopping) {
    await gateway.stop();
    process.exit(0);
  }
  reportReady(gateway.port);
}
