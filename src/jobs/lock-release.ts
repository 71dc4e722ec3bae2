// Agenda frees a run's lock in the run's last save and ignores that save failing; a failure of the
// run's first save (before the job's function) leaves the lock as well. With the database gone
// mid-run (a failover), such a job stays locked for its whole lock lifetime on every process: for
// deliver-webhooks, two minutes without a webhook sent. Here the lock of a run that ended on a
// failed save is freed once the database takes writes again, on the condition that it is still the
// run's lock (after the lifetime another process may have taken the job, and keeps it). The
// statement that takes a lock may also commit and lose its answer (the connection cut just then):
// the process never learns it holds the lock, so that lock, named by the time this process chose
// for it, is freed the same way.
import type { Agenda, Job } from 'agenda';
import type pg from 'pg';
import type { Logger } from '../logger.ts';

interface JobRow {
  _id?: unknown;
  name: string;
  lockedAt?: Date | null;
}

/** The part of the backend's repository (Agenda's `db`) that takes and frees locks. */
interface LockingRepository {
  getNextJobToRun(jobName: string, nextScanAt: unknown, lockDeadline: unknown, now?: Date, ...rest: unknown[]): Promise<JobRow | undefined>;
  saveJobState(job: JobRow, ...rest: unknown[]): Promise<void>;
  unlockJob(job: JobRow): Promise<void>;
}

const FIRST_PAUSE_MS = 250;
const LONGEST_PAUSE_MS = 2_000;

export interface LockRelease {
  /** No release is tried after this (the pool is about to end). */
  stop(): void;
}

export function releaseLocksOfFailedRuns(agenda: Agenda, pool: pg.Pool, logger: Logger): LockRelease {
  const repo = (agenda as unknown as { db: LockingRepository }).db;
  /** The lock this process holds on each job it took, as written in the job's row. */
  const held = new Map<string, Date>();
  /** Jobs whose function has begun (a failed save then is a touch, or the run's last save). */
  const running = new Set<string>();
  let stopped = false;

  agenda.on('start', (job: Job) => running.add(String(job.attrs._id)));
  agenda.on('complete', (job: Job) => running.delete(String(job.attrs._id)));

  const lifetimeOf = (name: string) => (agenda.definitions[name] as { lockLifetime?: number } | undefined)?.lockLifetime ?? 60_000;

  /** Frees job `id`'s lock if it is still `lock` (null id: the job named `name` locked at exactly `lock`). */
  async function release(id: string | null, name: string, lock: Date): Promise<void> {
    const until = lock.getTime() + lifetimeOf(name);
    for (let pause = FIRST_PAUSE_MS; !stopped && Date.now() < until; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
      try {
        const freed = id
          ? await pool.query('UPDATE agenda_jobs SET locked_at = NULL WHERE id = $1 AND locked_at = $2', [id, lock])
          : await pool.query('UPDATE agenda_jobs SET locked_at = NULL WHERE name = $1 AND locked_at = $2', [name, lock]);
        if (freed.rowCount) logger.info('job lock freed after its run could not save', { job: name });
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  const getNextJobToRun = repo.getNextJobToRun.bind(repo);
  repo.getNextJobToRun = async (jobName, nextScanAt, lockDeadline, now, ...rest) => {
    // The lock's time is chosen here rather than by the repository, so that it can be named below.
    const lockTime = now ?? new Date();
    let row: JobRow | undefined;
    try {
      row = await getNextJobToRun(jobName, nextScanAt, lockDeadline, lockTime, ...rest);
    } catch (err) {
      // Committed or not, nobody runs under that lock: free it if it was written. No other take of
      // the job writes the same time (a lock is only taken over after its lifetime).
      void release(null, jobName, lockTime);
      throw err;
    }
    if (row?.lockedAt) held.set(String(row._id), row.lockedAt);
    return row;
  };

  const saveJobState = repo.saveJobState.bind(repo);
  repo.saveJobState = async (job, ...rest) => {
    const id = String(job._id);
    try {
      await saveJobState(job, ...rest);
    } catch (err) {
      const lock = held.get(id);
      // The run's last save (it frees the lock) or its first (the run ends on it); not a touch.
      const runEnds = !job.lockedAt || !running.has(id);
      if (lock && runEnds) {
        held.delete(id);
        void release(id, job.name, lock);
      }
      throw err;
    }
    if (job.lockedAt) held.set(id, job.lockedAt);
    else held.delete(id);
  };

  // Agenda calls it without waiting (a job taken too early): a failure would be an unhandled rejection.
  const unlockJob = repo.unlockJob.bind(repo);
  repo.unlockJob = async (job) => {
    const id = String(job._id);
    const lock = held.get(id);
    held.delete(id);
    await unlockJob(job).catch(() => (lock ? release(id, job.name, lock) : undefined));
  };

  return {
    stop() {
      stopped = true;
    },
  };
}
