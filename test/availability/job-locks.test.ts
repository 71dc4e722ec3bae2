// A recurring job whose run the database left mid-way (a failover) runs again within seconds, not
// after its lock lifetime: the job runner reaches PostgreSQL through a TCP proxy that, during the
// job's first run, either cuts every connection and refuses new ones for a moment (HAProxy cutting
// a dead primary's sessions), or leaves the open connections silent (a machine gone from the
// network, until new connections reach the new primary). Either way the run's last save, which frees its lock, fails, and the lock lifetime
// (a minute here) would otherwise keep the job from running again.
import { afterEach, describe, expect, it } from 'vitest';
import { createJobRunner, type JobRunner } from '../../src/jobs/agenda.ts';
import { createLogger } from '../../src/logger.ts';
import { createTestDatabase, servingUrl } from '../helpers/db.ts';
import { startPgProxy, type PgProxy } from '../helpers/pg-proxy.ts';

const JOB = 'probe';
const LOCK_LIFETIME_MS = 60_000;

let runner: JobRunner | null = null;
let proxy: PgProxy | null = null;

afterEach(async () => {
  await runner?.stop();
  await proxy?.close();
  runner = proxy = null;
}, 30_000);

/** Starts a runner through a proxy with a recurring job that does `onFirstRun` in its first run; returns the runs' start times. */
async function recurringJobThrough(onFirstRun: (p: PgProxy) => void): Promise<{ runs: number[]; logLines: string[] }> {
  proxy = await startPgProxy(servingUrl(await createTestDatabase()));
  const logLines: string[] = [];
  runner = await createJobRunner({ databaseUrl: proxy.url, processEvery: 200, logger: createLogger('debug', (line) => logLines.push(line)), queryTimeoutMs: 2_000 });
  const runs: number[] = [];
  const p = proxy;
  runner.agenda.define(JOB, async () => {
    runs.push(Date.now());
    if (runs.length === 1) onFirstRun(p);
  }, { concurrency: 1, lockLifetime: LOCK_LIFETIME_MS });
  await runner.start();
  await runner.agenda.every(300, JOB);
  return { runs, logLines };
}

async function expectRunAgainWithin(runs: number[], ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (runs.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(runs.length, `runs: ${runs.length}`).toBeGreaterThanOrEqual(2);
}

describe('a recurring job after the database went away during its run', () => {
  it('connections cut and refused for 1.5 s: the lock is freed once the database is back, and the job runs again', async () => {
    const { runs, logLines } = await recurringJobThrough((p) => p.cut(1_500));
    await expectRunAgainWithin(runs, 8_000);
    expect(runs[1]! - runs[0]!).toBeLessThan(LOCK_LIFETIME_MS / 10);
    expect(logLines.some((l) => l.includes('job lock freed after its run could not save'))).toBe(true);
  }, 30_000);

  it('connections left silent for 3 s: the statements on them give up after the query timeout, and the job runs again', async () => {
    const { runs } = await recurringJobThrough((p) => p.silence(3_000));
    await expectRunAgainWithin(runs, 10_000);
    expect(runs[1]! - runs[0]!).toBeLessThan(LOCK_LIFETIME_MS / 6);
  }, 30_000);

  it("the statement that takes the job's lock commits and loses its answer: that lock is freed, and the job runs again", async () => {
    let cut: Promise<void> | null = null;
    // Armed during the first run: the next take of the job (its next run) is the one cut off.
    const { runs, logLines } = await recurringJobThrough((p) => void (cut = p.cutAfterCommit(/SET locked_at = \$1, last_modified_by = \$5/, 'UPDATE 1')));
    while (!cut) await new Promise((resolve) => setTimeout(resolve, 20));
    await cut;
    const before = runs.length;
    const deadline = Date.now() + 10_000;
    while (runs.length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runs.length, `runs: ${runs.length}`).toBeGreaterThan(before);
    expect(logLines.some((l) => l.includes('job lock freed after its run could not save'))).toBe(true);
  }, 30_000);
});
