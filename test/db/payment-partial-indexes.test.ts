// The payment's owner and card links and its 3D page token are indexed only where they are set
// (migration 0035): a payment without them (every regular API payment) writes no entry there, on
// its INSERT nor on its settling UPDATE. What must still hold: every lookup by one of them,
// including the foreign keys' own `ON DELETE SET NULL` statements, which PostgreSQL runs as a
// generic plan with a parameter, can use the partial index (`col = $1` implies `col IS NOT NULL`),
// a row with the value set is in it, and a token is still unique.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase } from '../helpers/db.ts';

let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
  await client.query('SET enable_seqscan = off');
  // The plan a prepared statement settles on after five runs: no parameter value to look at.
  await client.query('SET plan_cache_mode = force_generic_plan');
});
afterAll(() => client?.end());

const LINKS = ['orderId', 'subscriptionId', 'periodId', 'storedCardId', 'paidWithCardId'] as const;

async function genericPlan(name: string, sql: string, type = 'uuid', value = '00000000-0000-4000-8000-000000000001'): Promise<string> {
  await client.query(`PREPARE ${name}(${type}) AS ${sql}`);
  try {
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE ${name}('${value}')`);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await client.query(`DEALLOCATE ${name}`);
  }
}

it.each(LINKS)('"%s": a lookup by one value uses its partial index, as a generic plan', async (column) => {
  const plan = await genericPlan(`find_${column}`, `SELECT id FROM "Payment" WHERE "${column}" = $1`);
  expect(plan).toContain(`Payment_${column}_idx`);
});

it.each(LINKS)('"%s": the foreign key\'s SET NULL finds the rows through the partial index', async (column) => {
  // The statement PostgreSQL's referential trigger runs when the referenced row is deleted.
  const plan = await genericPlan(`unlink_${column}`, `UPDATE ONLY "public"."Payment" SET "${column}" = NULL WHERE $1 OPERATOR(pg_catalog.=) "${column}"`);
  expect(plan).toContain(`Payment_${column}_idx`);
});

it('the 3D page is found by its token through the partial unique index, as a generic plan', async () => {
  const plan = await genericPlan('find_token', `SELECT id FROM "Payment" WHERE "threeDsToken" = $1`, 'text', 'a-token');
  expect(plan).toContain('Payment_threeDsToken_key');
});

it('a payment without links or token has no entry in those indexes, one with a link has it there', async () => {
  // Rows written straight, without their workspace and saved card (this test is about the indexes
  // alone): `replica` leaves the foreign keys' triggers out for this session.
  await client.query(`SET session_replication_role = replica`);
  const insert = (storedCardId: string | null) =>
    client.query(
      `INSERT INTO "Payment" (id, "workspaceId", source, "securityType", status, amount, "baseAmount", currency, "isTest", "storedCardId", "createdAt", "updatedAt")
       VALUES (gen_random_uuid(), gen_random_uuid(), 'api', 'non_secure', 'successful', 100, 100, 'TRY', true, $1, now(), now())`,
      [storedCardId],
    );
  for (let i = 0; i < 3; i++) await insert(null);
  await insert('00000000-0000-4000-8000-0000000000cc');
  // A vacuum that has a dead row to remove scans every index and counts its entries into
  // pg_class.reltuples (without one, it may leave the indexes unread).
  await client.query(`DELETE FROM "Payment" WHERE id = (SELECT id FROM "Payment" WHERE "storedCardId" IS NULL LIMIT 1)`);
  await insert(null);
  await client.query('VACUUM (INDEX_CLEANUP ON) "Payment"');
  const { rows } = await client.query<{ name: string; entries: number }>(
    `SELECT c.relname AS name, c.reltuples::int AS entries FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = '"Payment"'::regclass`,
  );
  const entries = Object.fromEntries(rows.map((r) => [r.name, r.entries]));
  expect(entries['Payment_workspaceId_createdAt_idx']).toBe(4);
  expect(entries['Payment_storedCardId_idx']).toBe(1);
  for (const column of LINKS.filter((c) => c !== 'storedCardId')) expect(entries[`Payment_${column}_idx`], column).toBe(0);
  expect(entries['Payment_threeDsToken_key']).toBe(0);
});

it('two payments cannot share a 3D page token', async () => {
  const insert = () =>
    client.query(
      `INSERT INTO "Payment" (id, "workspaceId", source, "securityType", status, amount, "baseAmount", currency, "isTest", "threeDsToken", "createdAt", "updatedAt")
       VALUES (gen_random_uuid(), gen_random_uuid(), 'api', 'secure', 'started', 100, 100, 'TRY', true, 'token-1', now(), now())`,
    );
  await insert();
  await expect(insert()).rejects.toThrow(/Payment_threeDsToken_key/);
});
