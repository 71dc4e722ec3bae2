// Least privilege in the database: the gateway serves as a role that reads and writes rows and
// nothing else (src/db/serving-role.ts). Connected as that role, nothing can switch the audit
// trail's append-only trigger off, change or remove an audit entry, drop a table or make a role;
// the gateway still takes payments and records them. The owner sets the role up: on a database
// given by URL, and on an embedded data folder made before the role existed.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startEmbeddedPostgres, SERVING_ROLE } from '../../src/db/embedded.ts';
import { migrate, prepareDatabase } from '../../src/db/migrate.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { startGateway, type Gateway } from '../../src/gateway.ts';
import { createLogger } from '../../src/logger.ts';
import { Prisma } from '../../src/generated/prisma/client.ts';
import { queryRows } from '../../src/db/raw.ts';
import { createEmptyDatabase } from '../helpers/db.ts';
import { seedWorkspace, startTestGateway, TEST_MASTER_KEY, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { freePort } from '../helpers/ports.ts';

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const currentUser = async (gateway: Gateway) => (await queryRows<{ u: string }>(gateway.services.db, Prisma.sql`SELECT current_user::text AS u`))[0]!.u;

const PAY = 'mutation ($input: PaymentInput!) { regularPayment(input: $input) { result { successful } } }';

let t: TestGateway;
let m: Merchant;
const cleanups: Array<() => Promise<unknown> | void> = [];

beforeAll(async () => {
  t = await startTestGateway();
  m = await seedWorkspace(t, { slug: 'least' });
});
afterAll(async () => {
  await t?.stop();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('a started gateway', () => {
  it('serves as the serving role, takes a payment and records it in the audit trail', async () => {
    expect(await currentUser(t.gateway)).toBe(SERVING_ROLE);
    const token = await createAccessToken(t.gateway.services.db, 'least', 'desk');
    const input = {
      transaction: { channelToken: m.channelToken, channelReference: 'LEAST-1', amount: '10.00', currency: 'TRY', installmentNumber: 1, ip: '203.0.113.7' },
      card: { holderName: 'AYSE YILMAZ', number: '4111111111111111', securityCode: '739', expiryMonth: '12', expiryYear: '2030' },
      customer: { channelReference: 'C-LEAST', firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com' },
    };
    const res = await fetch(`${t.gateway.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'X-Request-Id': 'req-least-1' },
      body: JSON.stringify({ query: PAY, variables: { input } }),
    });
    expect(((await res.json()) as { data: { regularPayment: { result: { successful: boolean } } } }).data.regularPayment.result.successful).toBe(true);
    const audited = await t.gateway.services.db.auditEntry.findMany({ where: { requestId: 'req-least-1' } });
    expect(audited).toEqual([expect.objectContaining({ operation: 'regularPayment', outcome: 'done' })]);
    expect(await t.gateway.services.db.payment.count({ where: { channelReference: 'LEAST-1', status: 'successful' } })).toBe(1);
  });
});

describe('connected as the serving role', () => {
  it.each([
    ['disable the append-only trigger', `ALTER TABLE "AuditEntry" DISABLE TRIGGER "AuditEntry_append_only"`],
    ['disable every trigger of the audit table', `ALTER TABLE "AuditEntry" DISABLE TRIGGER ALL`],
    ['drop the trigger', `DROP TRIGGER "AuditEntry_append_only" ON "AuditEntry"`],
    ['replace the trigger function', `CREATE OR REPLACE FUNCTION audit_entry_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$`],
    ['update an audit entry', `UPDATE "AuditEntry" SET "operation" = 'nothing'`],
    ['delete an audit entry', `DELETE FROM "AuditEntry"`],
    ['truncate the audit table', `TRUNCATE "AuditEntry"`],
    ['drop a table', `DROP TABLE "Payment"`],
    ['alter a table', `ALTER TABLE "Payment" ADD COLUMN sneaky text`],
    ['create a table', `CREATE TABLE public.sneaky (id int)`],
    ['create a role', `CREATE ROLE intruder LOGIN SUPERUSER`],
    ['make itself a superuser', `ALTER ROLE ${SERVING_ROLE} SUPERUSER`],
    ['record a migration as applied', `INSERT INTO "_gateway_migrations" (name) VALUES ('9999_sneaky')`],
  ])('cannot %s', async (_what, sql) => {
    const before = await t.gateway.services.db.auditEntry.findMany({ orderBy: { id: 'asc' } });
    expect(before.length).toBeGreaterThan(0);
    const refused = await withClient(t.gateway.databaseUrl, (client) => client.query(sql).then(() => null, (err: Error & { code?: string }) => err));
    expect(refused?.code, refused?.message).toBe('42501'); // insufficient_privilege
    expect(await t.gateway.services.db.auditEntry.findMany({ orderBy: { id: 'asc' } })).toEqual(before);
    const triggers = await withClient(t.databaseUrl, (c) => c.query(`SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid = '"AuditEntry"'::regclass ORDER BY tgname`));
    expect(triggers.rows).toEqual([{ tgname: 'AuditEntry_append_only', tgenabled: 'O' }, { tgname: 'AuditEntry_no_truncate', tgenabled: 'O' }]);
  });

  it('may read and write the rows of every table the migrations made, the audit trail only read and add to', async () => {
    const privileges = await withClient(t.databaseUrl, (c) =>
      c.query<{ table: string; granted: string }>(
        `SELECT format('%I.%I', schemaname, tablename) AS table,
                concat_ws(',', ${['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']
                  .map((p) => `CASE WHEN has_table_privilege($1, format('%I.%I', schemaname, tablename), '${p}') THEN '${p}' END`)
                  .join(', ')}) AS granted
           FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
        [SERVING_ROLE],
      ),
    );
    const special: Record<string, string> = { 'public."AuditEntry"': 'SELECT,INSERT', 'public._gateway_migrations': 'SELECT' };
    expect(privileges.rows.length).toBeGreaterThan(20);
    expect(privileges.rows.map((r) => r.table)).toEqual(expect.arrayContaining(['agenda.agenda_jobs', 'ratelimit.requests']));
    expect(privileges.rows).toEqual(privileges.rows.map((r) => ({ table: r.table, granted: special[r.table] ?? 'SELECT,INSERT,UPDATE,DELETE' })));
  });
});

describe('the owner sets the serving role up', () => {
  it('takes back privileges granted beyond the serving ones when it grants again', async () => {
    await withClient(t.databaseUrl, (c) => c.query(`GRANT ALL ON "AuditEntry" TO ${SERVING_ROLE}`));
    await prepareDatabase({ owner: t.databaseUrl, serving: t.gateway.databaseUrl });
    const { rows } = await withClient(t.databaseUrl, (c) =>
      c.query(`SELECT has_table_privilege($1, '"AuditEntry"', 'UPDATE') AS update, has_table_privilege($1, '"AuditEntry"', 'INSERT') AS insert`, [SERVING_ROLE]),
    );
    expect(rows).toEqual([{ update: false, insert: true }]);
  });

  it('with DATABASE_OWNER_URL: migrates as the owner, creates the role DATABASE_URL names and serves with it', async () => {
    const owner = await createEmptyDatabase();
    const role = `serving_${randomUUID().slice(0, 8)}`;
    const url = new URL(owner);
    url.username = role;
    url.password = 'a p@ss/word';
    const serving = url.toString();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-serving-role-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const config = (env: Record<string, string>) =>
      loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, GATEWAY_MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: 'silent', ...env });

    const gateway = await startGateway(config({ DATABASE_URL: serving, DATABASE_OWNER_URL: owner }), { logger: createLogger('silent') });
    cleanups.push(() => gateway.stop());
    expect(await currentUser(gateway)).toBe(role);
    const refused = await withClient(serving, (c) => c.query(`ALTER TABLE "AuditEntry" DISABLE TRIGGER ALL`).catch((err: { code?: string }) => err.code));
    expect(refused).toBe('42501');

    // Given alone on a database still to migrate, the serving role may not: the start says which setting can.
    const other = new URL(await createEmptyDatabase());
    url.pathname = other.pathname;
    await expect(startGateway(config({ DATABASE_URL: url.toString() }), { logger: createLogger('silent') })).rejects.toThrow(
      `Migrations are pending and the role ${role} may not apply them`,
    );
  });

  it('refuses a superuser as the serving role: no privilege binds one', async () => {
    const role = `super_${randomUUID().slice(0, 8)}`;
    await withClient(t.databaseUrl, (c) => c.query(`CREATE ROLE ${role} LOGIN SUPERUSER PASSWORD 'pw'`));
    const url = new URL(t.databaseUrl);
    url.username = role;
    url.password = 'pw';
    await expect(prepareDatabase({ owner: t.databaseUrl, serving: url.toString() })).rejects.toThrow(`The serving role ${role} (the user in DATABASE_URL) is a superuser`);
  });
});

describe('an embedded data folder made before the serving role', () => {
  let dataDir: string;
  let gateway: Gateway | null = null;
  let config: ReturnType<typeof loadConfig>;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-before-role-'));
    const dir = path.join(dataDir, 'pg');
    const port = await freePort();
    // As it was: one superuser, its password alone in settings.json, the schema migrated by it.
    const old = await startEmbeddedPostgres({ dir, port, log: () => {} });
    await migrate(old.url);
    await old.stop();
    const { password } = JSON.parse(readFileSync(path.join(dir, 'settings.json'), 'utf8')) as { password: string };
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ password }), { mode: 0o600 });
    config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(port), GATEWAY_MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: 'silent' });
    gateway = await startGateway(config, { logger: createLogger('silent') });
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('gets the role at its next start, its password kept beside the superuser one, and is served by it', async () => {
    const file = path.join(dataDir, 'pg', 'settings.json');
    const settings = JSON.parse(readFileSync(file, 'utf8')) as { password: string; servingPassword: string };
    expect(settings.servingPassword).toMatch(/^[0-9a-f]{32}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await currentUser(gateway!)).toBe(SERVING_ROLE);
    expect(new URL(gateway!.databaseUrl).password).toBe(settings.servingPassword);
    const refused = await withClient(gateway!.databaseUrl, (c) => c.query(`DELETE FROM "AuditEntry"`).catch((err: { code?: string }) => err.code));
    expect(refused).toBe('42501');
  });

  it('sets the role password to the one in settings.json at every start, so the file is always right', async () => {
    const settings = JSON.parse(readFileSync(path.join(dataDir, 'pg', 'settings.json'), 'utf8')) as { password: string };
    const owner = new URL(gateway!.databaseUrl);
    owner.username = 'postgres';
    owner.password = settings.password;
    await withClient(owner.toString(), (c) => c.query(`ALTER ROLE ${SERVING_ROLE} PASSWORD 'something else'`));
    await gateway!.stop();
    gateway = null;
    gateway = await startGateway(config, { logger: createLogger('silent') });
    expect(await currentUser(gateway)).toBe(SERVING_ROLE);
  });
});
