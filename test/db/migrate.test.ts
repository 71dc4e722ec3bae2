// The migration runner (src/db/migrate.ts) and start-up when several processes share one new,
// empty database: everything is applied exactly once and every process comes up.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { listMigrations, migrate } from '../../src/db/migrate.ts';
import { startGateway, type Gateway } from '../../src/gateway.ts';
import { scheduleRecurringJobs } from '../../src/jobs/index.ts';
import { createLogger } from '../../src/logger.ts';
import { createEmptyDatabase } from '../helpers/db.ts';
import { TEST_MASTER_KEY } from '../helpers/gateway.ts';

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

const gateways: Gateway[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(gateways.map((g) => g.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('migrate()', () => {
  it('run twice at once on an empty database, applies every migration exactly once', async () => {
    const url = await createEmptyDatabase();
    const results = await Promise.all([migrate(url), migrate(url)]);

    const all = listMigrations();
    expect(all.length).toBeGreaterThan(0);
    // Between them the two calls applied each migration once; the later one found them done.
    expect([...results[0].applied, ...results[1].applied].sort()).toEqual(all);

    const recorded = await query<{ name: string; n: number }>(url, 'SELECT name, count(*)::int AS n FROM public."_gateway_migrations" GROUP BY name ORDER BY name');
    expect(recorded).toEqual(all.map((name) => ({ name, n: 1 })));
    // The tables exist (once: a second CREATE TABLE would have failed the call).
    const tables = await query<{ schema: string; name: string }>(
      url,
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
        WHERE (table_schema = 'public' AND table_name = 'Workspace') OR (table_schema = 'agenda' AND table_name = 'agenda_jobs')
        ORDER BY 1`,
    );
    expect(tables).toEqual([
      { schema: 'agenda', name: 'agenda_jobs' },
      { schema: 'public', name: 'Workspace' },
    ]);

    // Run again: nothing left to do.
    expect(await migrate(url)).toEqual({ applied: [] });
  });
});

describe('startGateway', () => {
  it('two gateways starting at once on one empty database both come up, with one demo workspace', async () => {
    const url = await createEmptyDatabase();
    const start = () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'gateway-concurrent-'));
      dirs.push(dir);
      const config = loadConfig({
        DATABASE_URL: url,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dir,
        GATEWAY_MASTER_KEY: TEST_MASTER_KEY,
        AGENDA_PROCESS_EVERY_MS: '200',
        LOG_LEVEL: 'silent',
      });
      return startGateway(config, { seedDemo: true, logger: createLogger('silent') }).then((g) => (gateways.push(g), g));
    };
    const started = await Promise.allSettled([start(), start()]);
    const why = started.flatMap((s) => (s.status === 'rejected' ? [String((s.reason as Error)?.stack ?? s.reason)] : [])).join('\n');
    expect(started.map((s) => s.status), why).toEqual(['fulfilled', 'fulfilled']);

    for (const g of gateways) {
      const health = await fetch(`${g.baseUrl}/healthz`);
      expect(health.status).toBe(200);
    }
    // The demo workspace is created by one of them only.
    expect(gateways.filter((g) => g.demo !== null)).toHaveLength(1);
    expect(await query(url, `SELECT slug FROM "Workspace"`)).toEqual([{ slug: 'demo' }]);
    const recorded = await query<{ n: number }>(url, 'SELECT count(*)::int AS n FROM public."_gateway_migrations"');
    expect(recorded[0].n).toBe(listMigrations().length);
  });

  it('recurring jobs scheduled by many starts at once all settle, none deadlocks', async () => {
    // Each start frees the recurring jobs' locks; many processes doing it together on the same
    // rows must wait for each other, never fail.
    const [g] = gateways;
    const runs = await Promise.allSettled(
      Array.from({ length: 200 }, () => scheduleRecurringJobs(g.jobs.agenda, g.config, g.services)),
    );
    const why = runs.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as Error)?.message)] : [])).join('\n');
    expect(runs.filter((r) => r.status === 'rejected'), why).toHaveLength(0);
  });
});
