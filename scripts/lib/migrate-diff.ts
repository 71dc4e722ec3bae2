// `prisma migrate diff` as this project can run it offline. Prisma 7's CLI only drives the native
// schema-engine binary, which would have to be downloaded; the same engine compiled to WebAssembly
// ships on npm (@prisma/schema-engine-wasm, pinned to the engines build of our `prisma`), so this
// drives it in-process over the pg adapter. The adapter needs a reachable DATABASE_URL even to
// compare two datamodels. `--from-migrations` cannot be used (the engine cannot introspect
// PostgreSQL 18), so every migration folder written by `npm run db:diff` keeps a `schema.prisma`
// snapshot of the datamodel after it, and the next migration is the diff from the newest snapshot.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory, type SqlDriverAdapter, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import * as engineBindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { DiffTarget, SchemaEngine } from '@prisma/schema-engine-wasm';

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

let engineClass: typeof SchemaEngine | undefined;

/** Node 20 cannot `import` a .wasm module, so the package's entry point is instantiated by hand. */
function loadSchemaEngine(): typeof SchemaEngine {
  if (!engineClass) {
    const bindingsFile = createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const module = new WebAssembly.Module(readFileSync(path.join(path.dirname(bindingsFile), 'schema_engine_bg.wasm')));
    const instance = new WebAssembly.Instance(module, { './schema_engine_bg.js': engineBindings as unknown as WebAssembly.ModuleImports });
    engineBindings.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    engineClass = engineBindings.SchemaEngine;
  }
  return engineClass;
}

/**
 * Snapshots written under Prisma 6 still name `url = env(...)` in their datasource block, which
 * Prisma 7 refuses; the url never took part in a datamodel diff, so it is left out.
 */
function datamodelTarget(file: string | null): DiffTarget {
  if (!file) return { tag: 'empty' };
  const content = readFileSync(file, 'utf8').replace(/^(\s*)url\s*=\s*env\("[A-Z_]+"\)\s*$/m, '');
  return { tag: 'schemaDatamodel', files: [{ path: file, content }] };
}

/**
 * The SQL that turns `from` into `to`. Each side is a schema file's datamodel, or null for the
 * empty datamodel. `databaseUrl` only has to be reachable; nothing is read from or written to it.
 */
export async function migrateDiff(from: string | null, to: string | null, databaseUrl: string): Promise<string> {
  const pg = new PrismaPg({ connectionString: databaseUrl });
  // The engine opens its own connections and never closes them: keep them to close afterwards.
  const opened: SqlDriverAdapter[] = [];
  const track = async (adapter: Promise<SqlDriverAdapter>) => {
    const connected = await adapter;
    opened.push(connected);
    return connected;
  };
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: pg.provider,
    adapterName: pg.adapterName,
    connect: () => track(pg.connect()),
    connectToShadowDb: () => track(pg.connectToShadowDb()),
  };
  const engine = await loadSchemaEngine().new({ datamodels: undefined }, () => {}, bindMigrationAwareSqlAdapterFactory(factory));
  try {
    const result = await engine.diff({
      from: datamodelTarget(from),
      to: datamodelTarget(to),
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    return result.stdout ?? '';
  } finally {
    engine.free();
    await Promise.all(opened.map((adapter) => adapter.dispose()));
  }
}

export function isEmptyMigration(sql: string): boolean {
  return sql.trim() === EMPTY_MIGRATION;
}
