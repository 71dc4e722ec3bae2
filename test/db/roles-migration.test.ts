// Migration 0025 on a database that already has tokens: workspace tokens become owners, support
// tokens stay support, and a new token without a role is an owner.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { listMigrations, migrate, MIGRATIONS_DIR } from '../../src/db/migrate.ts';
import { createEmptyDatabase } from '../helpers/db.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'migrations-before-roles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('0025 makes every existing workspace token an owner and keeps support tokens', async () => {
  for (const name of listMigrations().filter((n) => n < '0025')) cpSync(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
  const url = await createEmptyDatabase();
  await migrate(url, dir);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const ws = await client.query<{ id: string }>(`INSERT INTO "Workspace" (id, slug, name, "updatedAt") VALUES (gen_random_uuid(), 'before', 'Before', now()) RETURNING id`);
    await client.query(`INSERT INTO "AccessToken" (id, "workspaceId", role, name, "tokenHash") VALUES (gen_random_uuid(), $1, 'dashboard', 'old dash', 'h1'), (gen_random_uuid(), NULL, 'support', 'old support', 'h2')`, [ws.rows[0]!.id]);
    const result = await migrate(url);
    expect(result.applied[0]).toMatch(/^0025_/);
    const rows = await client.query<{ name: string; role: string }>(`SELECT name, role::text FROM "AccessToken" ORDER BY name`);
    expect(rows.rows).toEqual([{ name: 'old dash', role: 'owner' }, { name: 'old support', role: 'support' }]);
    await client.query(`INSERT INTO "AccessToken" (id, "workspaceId", name, "tokenHash") VALUES (gen_random_uuid(), $1, 'defaulted', 'h3')`, [ws.rows[0]!.id]);
    expect((await client.query(`SELECT role::text FROM "AccessToken" WHERE name = 'defaulted'`)).rows).toEqual([{ role: 'owner' }]);
  } finally {
    await client.end();
  }
});
