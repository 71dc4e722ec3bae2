// Applies prisma/migrations/*/migration.sql in order, each in its own transaction, recorded in
// a table, under an advisory lock so processes starting together migrate exactly once; then, when
// the gateway serves with a role of its own, grants that role its privileges (serving-role.ts).
// (`prisma migrate deploy` needs a native engine that cannot be downloaded here.)
import pg from 'pg';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { grantServingRole, roleOf, type ServingRole } from './serving-role.ts';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../prisma/migrations');
const LOCK_KEY = 7_245_001; // any constant shared by every gateway process

export interface MigrationResult {
  applied: string[];
}

/** Where a gateway's database work goes: the same URL twice when one role does both. */
export interface DatabaseUrls {
  /** The owner of the schema: applies the migrations and grants the serving role. */
  owner: string;
  /** What the gateway serves requests and jobs with. */
  serving: string;
  /**
   * Set the serving role's password to the serving URL's at every run, not only when creating the
   * role: for the embedded server, whose settings.json is the password's only record.
   */
  setServingPassword?: boolean;
}

/** The URLs the settings give: DATABASE_OWNER_URL migrates when set, DATABASE_URL serves. */
export function configuredUrls(databaseUrl: string, ownerUrl: string | undefined): DatabaseUrls {
  return { owner: ownerUrl ?? databaseUrl, serving: databaseUrl };
}

export function listMigrations(dir = MIGRATIONS_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort();
}

/** Applies what is pending with one role (the owner's URL, or the only one). */
export function migrate(databaseUrl: string, dir = MIGRATIONS_DIR): Promise<MigrationResult> {
  return prepareDatabase({ owner: databaseUrl, serving: databaseUrl }, dir);
}

/**
 * Migrates with the owner's URL and, when the serving URL names another role, makes that role's
 * privileges what serving needs (creating the role if it is missing). With nothing pending and no
 * role to grant, it only reads: a process given the serving URL alone (a worker, whose primary
 * prepared the database) checks that the database is ready without taking a lock or writing.
 */
export async function prepareDatabase(urls: DatabaseUrls, dir = MIGRATIONS_DIR): Promise<MigrationResult> {
  const serving = servingRole(urls);
  const client = new pg.Client({ connectionString: urls.owner });
  await client.connect();
  try {
    if (!serving && (await pending(client, dir)).length === 0) return { applied: [] };
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    try {
      const applied = await applyPending(client, dir).catch((err: Error) => {
        throw whenNotAllowed(err, roleOf(urls.owner));
      });
      if (serving) await grantServingRole(client, serving);
      return { applied };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => {});
    }
  } finally {
    await client.end();
  }
}

/** The serving role to grant, or null when both URLs name the same role (it owns what it serves). */
function servingRole(urls: DatabaseUrls): ServingRole | null {
  const name = roleOf(urls.serving);
  if (urls.owner === urls.serving || name === roleOf(urls.owner)) return null;
  if (!name) throw new Error('DATABASE_URL must name its role (postgresql://role:password@host:5432/database) when DATABASE_OWNER_URL is set.');
  if (new URL(urls.owner).pathname !== new URL(urls.serving).pathname) {
    throw new Error('DATABASE_URL and DATABASE_OWNER_URL must name the same database.');
  }
  const password = new URL(urls.serving).password;
  return { name, password: password ? decodeURIComponent(password) : undefined, setPassword: urls.setServingPassword };
}

async function pending(client: pg.Client, dir: string): Promise<string[]> {
  const { rows } = await client.query<{ found: boolean }>(`SELECT to_regclass('public."_gateway_migrations"') IS NOT NULL AS found`);
  const done = new Set(rows[0]!.found ? (await client.query<{ name: string }>('SELECT name FROM public."_gateway_migrations"')).rows.map((r) => r.name) : []);
  return listMigrations(dir).filter((name) => !done.has(name));
}

async function applyPending(client: pg.Client, dir: string): Promise<string[]> {
  await client.query(`CREATE TABLE IF NOT EXISTS public."_gateway_migrations" (
    name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  const applied: string[] = [];
  for (const name of await pending(client, dir)) {
    const sql = readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
    await client.query('BEGIN');
    try {
      await client.query(sql);
      await client.query('INSERT INTO public."_gateway_migrations" (name) VALUES ($1)', [name]);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw new Error(`Migration ${name} failed: ${(err as Error).message}`, { cause: err });
    }
    applied.push(name);
  }
  return applied;
}

/** A role that may not change the schema (the serving role given alone) is told which URL can. */
function whenNotAllowed(err: Error, role: string | null): Error {
  const code = (err as { code?: string }).code ?? (err.cause as { code?: string } | undefined)?.code;
  if (code !== '42501') return err;
  return new Error(
    `Migrations are pending and the role ${role ?? '(unnamed)'} may not apply them (${err.message}): ` +
      'give the gateway the owner of the schema in DATABASE_OWNER_URL.',
    { cause: err },
  );
}
