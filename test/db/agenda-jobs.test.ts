// Agenda's job table over time (migration 0013): a keyed job is looked up by its key through an
// index however many jobs came before, and the one-time jobs that succeeded before one-time jobs
// were removed on completion are cleared, while failed, pending and recurring ones stay.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { listMigrations, migrate, MIGRATIONS_DIR } from '../../src/db/migrate.ts';
import { createEmptyDatabase } from '../helpers/db.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The migrations before 0013, in a directory of their own. */
function migrationsBefore(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-migrations-'));
  dirs.push(dir);
  for (const m of listMigrations().filter((m) => m < name)) cpSync(path.join(MIGRATIONS_DIR, m), path.join(dir, m), { recursive: true });
  return dir;
}

describe('keyed jobs', () => {
  it('are found by key through the index with 20,000 past jobs of the same name', async () => {
    const url = await createEmptyDatabase();
    await migrate(url);
    const plan = await withClient(url, async (c) => {
      await c.query(`INSERT INTO agenda.agenda_jobs (name, data, last_finished_at, failed_at, fail_reason)
        SELECT 'expire-payment', jsonb_build_object('paymentId', gen_random_uuid(), 'key', 'expire-payment:' || gen_random_uuid()), now(), now(), 'kept'
        FROM generate_series(1, 20000)`);
      await c.query('ANALYZE agenda.agenda_jobs');
      // The statement @agendajs/postgres-backend sends for job.unique({ 'data.key': key }), on
      // a connection like the gateway's Agenda pool (search_path agenda, src/jobs/agenda.ts).
      await c.query('SET search_path TO agenda');
      const unique = 'SELECT * FROM "agenda_jobs" WHERE name = $1 AND data->>$2 = $3 LIMIT 1';
      const { rows } = await c.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${unique}`, ['expire-payment', 'key', 'expire-payment:00000000-0000-4000-8000-000000000000']);
      return JSON.stringify(rows[0]!['QUERY PLAN']);
    });
    expect(plan).toContain('"Index Name":"agenda_jobs_name_key_idx"');
    expect(plan).not.toContain('Seq Scan');
  });
});

describe('migration 0013 on a database with job history', () => {
  it('removes the one-time jobs that succeeded, and keeps failed, pending and recurring jobs', async () => {
    const url = await createEmptyDatabase();
    await migrate(url, migrationsBefore('0013'));
    await withClient(url, (c) =>
      c.query(`INSERT INTO agenda.agenda_jobs (name, data, next_run_at, last_finished_at, failed_at, repeat_interval) VALUES
        ('expire-payment', '{"key":"succeeded"}', NULL, now(), NULL, NULL),
        ('expire-payment', '{"key":"failed"}', NULL, now(), now(), NULL),
        ('expire-payment', '{"key":"pending"}', now() + interval '10 minutes', NULL, NULL, NULL),
        ('expire-payment', '{"key":"rescheduled"}', now() + interval '10 minutes', now(), NULL, NULL),
        ('deliver-webhooks', '{"key":"recurring"}', NULL, now(), NULL, '1000')`),
    );

    expect((await migrate(url)).applied).toEqual(listMigrations().filter((m) => m >= '0013'));

    const left = await withClient(url, async (c) => (await c.query<{ key: string }>(`SELECT data->>'key' AS key FROM agenda.agenda_jobs ORDER BY 1`)).rows.map((r) => r.key));
    expect(left).toEqual(['failed', 'pending', 'recurring', 'rescheduled']);
  });
});
