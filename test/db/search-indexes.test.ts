// The indexes of migrations 0027, 0029 and 0030 that only they can serve: with sequential scans off, each plan
// names its index (an empty table would otherwise be scanned, and an unusable index, such as a
// btree for ILIKE '%…%', would silently scan every row). The (workspaceId, column) btrees are
// checked by schema-drift.test.ts; on empty tables the planner may pick any workspaceId index.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase } from '../helpers/db.ts';

let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
  await client.query('SET enable_seqscan = off');
});
afterAll(() => client?.end());

async function plan(sql: string): Promise<string> {
  const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

const WS = `'00000000-0000-4000-8000-000000000001'::uuid`;

it.each([
  ['customer names, e-mail, reference (ILIKE, any case)', `SELECT id FROM "Customer" WHERE ("firstname"::text ILIKE '%zeynep%' OR "lastname"::text ILIKE '%zeynep%' OR "email"::text ILIKE '%zeynep%' OR "channelReference"::text ILIKE '%zeynep%')`, 'Customer_search_trgm_idx'],
  ['the customers list and its export, newest first', `SELECT id FROM "Customer" WHERE "workspaceId" = ${WS} ORDER BY "createdAt" DESC, id DESC LIMIT 21`, 'Customer_workspaceId_createdAt_idx'],
  ['the products list and its export, newest first', `SELECT id FROM "Product" WHERE "workspaceId" = ${WS} ORDER BY "createdAt" DESC, id DESC LIMIT 21`, 'Product_workspaceId_createdAt_idx'],
  ['the notifications list and its export, newest first', `SELECT id FROM "Notification" WHERE "workspaceId" = ${WS} ORDER BY "createdAt" DESC, id DESC LIMIT 21`, 'Notification_workspaceId_createdAt_idx'],
  ["a customer's payments", `SELECT id FROM "Payment" WHERE "customerId" = ${WS} ORDER BY "createdAt" DESC`, 'Payment_customerId_createdAt_idx'],
  ["the events naming a payment of an order, link or subscription", `SELECT id FROM "OutboxEvent" WHERE "workspaceId" = ${WS} AND "transactionToken" = ${WS}`, 'OutboxEvent_workspaceId_transactionToken_idx'],
])('%s', async (_what, sql, index) => {
  expect(await plan(sql)).toContain(index);
});
