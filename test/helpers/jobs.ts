// Agenda schedules jobs at real times, but the gateway decides with its manual clock. After a
// test moves the clock, `runJobsDueBy` makes every job due by that clock run now (Agenda polls
// every 200 ms in tests) and waits until each of them has finished.
import pg from 'pg';
import type { TestGateway } from './gateway.ts';

export async function runJobsDueBy(t: TestGateway, opts: { timeoutMs?: number } = {}): Promise<number> {
  const client = new pg.Client({ connectionString: t.databaseUrl });
  await client.connect();
  try {
    const due = await client.query<{ id: string; marker: Date }>(
      'UPDATE agenda.agenda_jobs SET next_run_at = now() WHERE next_run_at <= $1 RETURNING id, now() AS marker',
      [t.clock.now()],
    );
    if (due.rowCount === 0) return 0;
    const ids = due.rows.map((r) => r.id);
    const marker = due.rows[0]!.marker;
    const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
    for (;;) {
      // Done: finished or failed after the nudge (a job that reschedules itself is done too).
      const pending = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM agenda.agenda_jobs
          WHERE id = ANY($1::uuid[])
            AND NOT (coalesce(last_finished_at, 'epoch') >= $2 OR coalesce(failed_at, 'epoch') >= $2)`,
        [ids, marker],
      );
      if (Number(pending.rows[0]!.n) === 0) return ids.length;
      if (Date.now() > deadline) {
        const rows = await client.query('SELECT name, next_run_at, locked_at, last_finished_at, failed_at, fail_reason FROM agenda.agenda_jobs WHERE id = ANY($1::uuid[])', [ids]);
        throw new Error(`${pending.rows[0]!.n} of ${ids.length} due jobs did not run after ${marker.toISOString()}: ${JSON.stringify(rows.rows)}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await client.end();
  }
}
