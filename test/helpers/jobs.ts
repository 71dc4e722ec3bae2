// Agenda schedules jobs at real times, but the gateway decides with its manual clock. After a
// test moves the clock, `runJobsDueBy` makes every job due by that clock run now (Agenda polls
// every 200 ms in tests) and waits until each of them has finished a run that started after that.
import pg from 'pg';
import type { TestGateway } from './gateway.ts';

export async function runJobsDueBy(t: TestGateway, opts: { timeoutMs?: number } = {}): Promise<number> {
  const client = new pg.Client({ connectionString: t.databaseUrl });
  await client.connect();
  const nudge = async (ids: string[]) =>
    (await client.query<{ id: string; marker: Date }>('UPDATE agenda.agenda_jobs SET next_run_at = now() WHERE id = ANY($1::uuid[]) RETURNING id, now() AS marker', [ids])).rows;
  try {
    const due = await client.query<{ id: string }>('SELECT id FROM agenda.agenda_jobs WHERE next_run_at <= $1', [t.clock.now()]);
    if (due.rowCount === 0) return 0;
    const ids = due.rows.map((r) => r.id);
    const nudged = new Map((await nudge(ids)).map((r) => [r.id, r.marker]));
    const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
    for (;;) {
      // Done: a run that started after the nudge, and finished or failed. A run already under way
      // at the nudge read the database before the test's change and, on finishing, writes its own
      // next run over the nudge: such a job is nudged again.
      const rows = await client.query<{ id: string; state: 'done' | 'stale' | 'waiting' }>(
        `SELECT j.id, CASE
            WHEN j.last_run_at >= n.marker AND (coalesce(j.last_finished_at, 'epoch') >= j.last_run_at OR coalesce(j.failed_at, 'epoch') >= j.last_run_at) THEN 'done'
            WHEN j.locked_at IS NULL AND coalesce(j.last_run_at, 'epoch') < n.marker AND j.next_run_at > now() THEN 'stale'
            ELSE 'waiting' END AS state
          FROM agenda.agenda_jobs j JOIN unnest($1::uuid[], $2::timestamptz[]) AS n(id, marker) ON n.id = j.id`,
        [[...nudged.keys()], [...nudged.values()]],
      );
      if (rows.rows.every((r) => r.state === 'done')) return ids.length;
      const stale = rows.rows.filter((r) => r.state === 'stale').map((r) => r.id);
      if (stale.length) for (const r of await nudge(stale)) nudged.set(r.id, r.marker);
      if (Date.now() > deadline) {
        const left = await client.query('SELECT name, next_run_at, last_run_at, locked_at, last_finished_at, failed_at, fail_reason FROM agenda.agenda_jobs WHERE id = ANY($1::uuid[])', [ids]);
        throw new Error(`${rows.rows.filter((r) => r.state !== 'done').length} of ${ids.length} due jobs did not run after their nudge: ${JSON.stringify(left.rows)}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await client.end();
  }
}
