// npm run db:diff -- <name>
// Writes the next migration from the changes made to prisma/schema.prisma since the newest
// migration snapshot: prisma/migrations/<NNNN>_<name>/migration.sql plus a copy of schema.prisma
// as that folder's snapshot. A throwaway embedded PostgreSQL is started only because the Prisma
// CLI's adapter needs a reachable database; it is stopped and removed again.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import getPort from 'get-port';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { isEmptyMigration, migrateDiff, migrationFolders, MIGRATIONS, newestSnapshot, SCHEMA } from './lib/migrate-diff.ts';

const freePort = (): Promise<number> => getPort({ host: '127.0.0.1' });

async function main(): Promise<number> {
  const name = process.argv[2];
  if (!name || !/^[a-z][a-z0-9_]*$/.test(name) || process.argv.length > 3) {
    process.stderr.write('Usage: npm run db:diff -- <name>   (lowercase letters, digits and _, e.g. add_refund_reason)\n');
    return 2;
  }
  const from = newestSnapshot();
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-db-diff-'));
  const db = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port: await freePort(), persistent: false, database: 'postgres' });
  let sql: string;
  try {
    sql = await migrateDiff(from, SCHEMA, db.url);
  } finally {
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const base = from ? path.relative(process.cwd(), from) : 'the empty database';
  if (isEmptyMigration(sql)) {
    process.stdout.write(`No changes: prisma/schema.prisma matches ${base}. Nothing written.\n`);
    return 0;
  }
  const last = migrationFolders().at(-1);
  const next = String((last ? Number(last.slice(0, 4)) : 0) + 1).padStart(4, '0');
  const folder = path.join(MIGRATIONS, `${next}_${name}`);
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'migration.sql'), sql.endsWith('\n') ? sql : sql + '\n');
  copyFileSync(SCHEMA, path.join(folder, 'schema.prisma'));
  const shown = path.relative(process.cwd(), folder);
  process.stdout.write(`Wrote ${shown}/migration.sql (changes since ${base}) and ${shown}/schema.prisma (the new snapshot):\n\n${sql}\n`);
  process.stdout.write(
    'Review the SQL before committing: data moves and NOT NULL columns on filled tables need a hand, and an enum value\n' +
      "added anywhere but last needs `ADD VALUE '…' BEFORE '…'` (Prisma appends it). test/db/schema-drift.test.ts checks the result.\n",
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    process.stderr.write(`db:diff failed: ${err.message}\n`);
    process.exit(1);
  },
);
