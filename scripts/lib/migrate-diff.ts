// `prisma migrate diff` as this project can run it offline: the WASM schema engine of
// prisma.config.ts over the pg adapter, which needs a reachable DATABASE_URL even to compare two
// datamodels. `--from-migrations` cannot be used (the engine cannot introspect PostgreSQL 18), so
// every migration folder written by `npm run db:diff` keeps a `schema.prisma` snapshot of the
// datamodel after it, and the next migration is the diff from the newest snapshot.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SCHEMA = path.join(ROOT, 'prisma', 'schema.prisma');
export const MIGRATIONS = path.join(ROOT, 'prisma', 'migrations');
export const EMPTY_MIGRATION = '-- This is an empty migration.';

/** Migration folders (`0001_init`, …) in apply order. */
export function migrationFolders(): string[] {
  return readdirSync(MIGRATIONS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^\d{4}_/.test(d.name))
    .map((d) => d.name)
    .sort();
}

/** The datamodel after the newest migration that has a snapshot, or null before the first. */
export function newestSnapshot(): string | null {
  const withSnapshot = migrationFolders().filter((name) => existsSync(path.join(MIGRATIONS, name, 'schema.prisma')));
  const newest = withSnapshot.at(-1);
  return newest ? path.join(MIGRATIONS, newest, 'schema.prisma') : null;
}

/**
 * The SQL that turns `from` into `to`. Each side is a schema file's datamodel, or null for the
 * empty datamodel. `databaseUrl` only has to be reachable; nothing is read from or written to it.
 */
export async function migrateDiff(from: string | null, to: string | null, databaseUrl: string): Promise<string> {
  const side = (dir: 'from' | 'to', file: string | null) => (file ? [`--${dir}-schema-datamodel`, file] : [`--${dir}-empty`]);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'prisma', 'build', 'index.js'), 'migrate', 'diff', ...side('from', from), ...side('to', to), '--script'],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_QUERY_ENGINE_LIBRARY: '/dev/null', PRISMA_SCHEMA_ENGINE_BINARY: '/dev/null', PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 60_000,
    },
  );
  return stdout;
}

export function isEmptyMigration(sql: string): boolean {
  return sql.trim() === EMPTY_MIGRATION;
}
