// The steps of a gateway's stop (src/gateway.ts), each waited for at most a limit. A step that
// waits on the network can wait for as long as TCP does when the database's machine vanished
// without closing anything: a silent connection's end, a pool whose client still waits for an
// answer. Past its limit the stop goes on with the next step and says which one it left behind;
// the process then exits as it would have, and PostgreSQL ends the sessions it still holds.
import type { Logger } from './logger.ts';

export interface StopStep {
  name: string;
  run: () => Promise<unknown>;
  /** How long the stop waits for it; null: as long as it takes (the embedded PostgreSQL's own shutdown). */
  limitMs?: number | null;
}

/** A step's limit unless it sets its own: every step but the jobs' closes connections only. */
export const STOP_STEP_LIMIT_MS = 5_000;
/** The jobs' step waits up to 15 s for the jobs this process is running (jobs/agenda.ts), then closes its pool. */
export const JOBS_STOP_LIMIT_MS = 20_000;

export async function withinLimit(step: StopStep, logger: Logger): Promise<void> {
  const limitMs = step.limitMs === undefined ? STOP_STEP_LIMIT_MS : step.limitMs;
  if (limitMs === null) return void (await step.run());
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), limitMs)));
  try {
    if ((await Promise.race([step.run(), late])) === 'late') logger.warn('stop step did not finish in time; the stop goes on without it', { step: step.name, waited_ms: limitMs });
  } finally {
    clearTimeout(timer);
  }
}
