// Stopping a child process the bench started: SIGTERM, then SIGKILL if it has not exited after
// the grace period, so a stuck child never outlives the run.
import type { ChildProcess } from 'node:child_process';
import { sleep } from './stats.ts';

export async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  if (await Promise.race([exited.then(() => false), sleep(graceMs).then(() => true)])) {
    child.kill('SIGKILL');
    await exited;
  }
}
