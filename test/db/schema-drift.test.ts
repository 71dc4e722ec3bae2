// prisma/schema.prisma and prisma/migrations must agree: (a) the newest migration snapshot is the
// schema (nothing left for `npm run db:diff`), and (b) the database the migrations build is the
// database Prisma would build from the schema alone. See scripts/lib/migrate-diff.ts for why
// snapshots stand in for `prisma migrate diff --from-migrations`.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.ts';
import { EMPTY_MIGRATION, migrateDiff, newestSnapshot, SCHEMA } from '../../scripts/lib/migrate-diff.ts';
import { adminDatabaseUrl, createEmptyDatabase } from '../helpers/db.ts';

const IGNORED_TABLE = '_gateway_migrations';

/** The `public` schema as catalog rows, in a stable order (column order within a table is not compared). */
async function describePublicSchema(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const rows = async (sql: string) => (await client.query(sql, [IGNORED_TABLE])).rows;
  try {
    return {
      tables: await rows(`
        SELECT table_name, table_type FROM information_schema.tables
         WHERE table_schema = 'public' AND table_name <> $1 ORDER BY table_name`),
      columns: await rows(`
        SELECT table_name, column_name, data_type, udt_name, character_maximum_length, numeric_precision,
               numeric_scale, datetime_precision, is_nullable, column_default, is_identity, is_generated
          FROM information_schema.columns
         WHERE table_schema = 'public' AND table_name <> $1 ORDER BY table_name, column_name`),
      enums: await rows(`
        SELECT t.typname AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
          FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace JOIN pg_enum e ON e.enumtypid = t.oid
         WHERE n.nspname = 'public' AND $1::text IS NOT NULL GROUP BY t.typname ORDER BY t.typname`),
      indexes: await rows(`
        SELECT tablename, indexname, indexdef FROM pg_indexes
         WHERE schemaname = 'public' AND tablename <> $1 ORDER BY tablename, indexname`),
      constraints: await rows(`
        SELECT rel.relname AS table_name, c.conname AS name, c.contype AS type, pg_get_constraintdef(c.oid) AS definition
          FROM pg_constraint c JOIN pg_class rel ON rel.oid = c.conrelid JOIN pg_namespace n ON n.oid = rel.relnamespace
         WHERE n.nspname = 'public' AND rel.relname <> $1 ORDER BY rel.relname, c.conname`),
      sequences: await rows(`
        SELECT sequence_name, data_type FROM information_schema.sequences
         WHERE sequence_schema = 'public' AND $1::text IS NOT NULL ORDER BY sequence_name`),
    };
  } finally {
    await client.end();
  }
}

describe('prisma/schema.prisma and prisma/migrations', () => {
  it('the newest migration snapshot is prisma/schema.prisma (run `npm run db:diff -- <name>` after a schema change)', async () => {
    const snapshot = newestSnapshot();
    expect(snapshot, 'no migration folder has a schema.prisma snapshot').not.toBeNull();
    const sql = await migrateDiff(snapshot, SCHEMA, adminDatabaseUrl());
    expect(sql.trim(), `prisma/schema.prisma differs from ${snapshot}`).toBe(EMPTY_MIGRATION);
  }, 60_000);

  it('the migrations build the same public schema as prisma/schema.prisma on an empty database', async () => {
    const [fromSchemaSql, migratedUrl, fromSchemaUrl] = await Promise.all([
      migrateDiff(null, SCHEMA, adminDatabaseUrl()),
      createEmptyDatabase(),
      createEmptyDatabase(),
    ]);
    await migrate(migratedUrl);
    const client = new pg.Client({ connectionString: fromSchemaUrl });
    await client.connect();
    try {
      await client.query(fromSchemaSql);
    } finally {
      await client.end();
    }
    const [migrated, fromSchema] = await Promise.all([describePublicSchema(migratedUrl), describePublicSchema(fromSchemaUrl)]);
    expect(migrated.tables.length).toBeGreaterThan(0);
    expect(migrated).toEqual(fromSchema);
  }, 60_000);
});
