// A row the gateway deletes (a saved card, a webhook address, a routing rule...) makes PostgreSQL
// find the rows that refer to it, for their ON DELETE action: without an index on the referring
// column that is a scan of the whole referring table (every payment, every notification) inside
// the deleting request's transaction. The tables deleted from are read from the source, so a new
// delete is covered without editing this test.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.ts';
import { createEmptyDatabase } from '../helpers/db.ts';

const SRC = path.resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === 'generated' ? [] : sourceFiles(full);
    return d.name.endsWith('.ts') ? [full] : [];
  });
}

/** Tables the gateway deletes rows from: `db.<model>.delete(…)`/`deleteMany(…)` and raw `DELETE FROM "<Table>"`. */
function tablesDeletedFrom(): string[] {
  const tables = new Set<string>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\.([a-z][A-Za-z]*)\.delete(?:Many)?\(/g)) tables.add(m[1]![0]!.toUpperCase() + m[1]!.slice(1));
    for (const m of text.matchAll(/DELETE FROM "([A-Za-z]+)"/g)) tables.add(m[1]!);
  }
  return [...tables].sort();
}

it('every foreign key to a table the gateway deletes rows from is the first column of an index', async () => {
  const deleted = tablesDeletedFrom();
  // The scan found the deletes it must find (delete-card, webhook addresses, idempotency keys).
  expect(deleted).toEqual(expect.arrayContaining(['SavedCard', 'WebhookAddress', 'IdempotencyRecord', 'RoutingRule']));

  const url = await createEmptyDatabase();
  await migrate(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ fk: string }>(
      `SELECT format('%s.%s -> %s', c.conrelid::regclass, a.attname, c.confrelid::regclass) AS fk
         FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
        WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
          AND (SELECT relname FROM pg_class WHERE oid = c.confrelid) = ANY($1::text[])
          AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.conrelid AND i.indkey[0] = c.conkey[1])
        ORDER BY 1`,
      [deleted],
    );
    expect(rows.map((r) => r.fk)).toEqual([]);
  } finally {
    await client.end();
  }
});
