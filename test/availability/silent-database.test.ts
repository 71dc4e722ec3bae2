// The database's machine gone from the network without closing anything (a failover where the old
// primary vanished): the gateway's open connections stay open and silent. A request on one must not
// wait for ever: a statement unanswered after DB_QUERY_TIMEOUT_MS fails, the request answers 503
// with Retry-After, and the connection is dropped, so once the network is back new connections
// serve every request (none is left in the pool with its statement still outstanding).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, servingUrl } from '../helpers/db.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { paymentBody } from '../helpers/payments.ts';
import { startPgProxy, type PgProxy } from '../helpers/pg-proxy.ts';
import { poolOf } from '../../src/db/client.ts';

const QUERY_TIMEOUT_MS = 1_500;
let proxy: PgProxy;
let t: TestGateway;
let m: Merchant;
let n = 0;

beforeAll(async () => {
  proxy = await startPgProxy(servingUrl(await createTestDatabase()));
  t = await startTestGateway({ databaseUrl: proxy.url, env: { DB_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS), ADMISSION_MEMORY_MS: '0' } });
  m = await seedWorkspace(t, { slug: 'silent-db' });
}, 60_000);

// A stop after the silences has taken from 1.5 s (alone: the job runner's statements, limited by
// DB_QUERY_TIMEOUT_MS) to 48 s in full runs (not found which step). Each step of a stop is now
// waited for at most its limit (src/stop-steps.ts), which together still come to about 50 s: the
// hook allows for them.
afterAll(async () => {
  await t?.stop();
  await proxy?.close();
}, 90_000);

const pay = () => m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: `SILENT-${++n}` } }), { headers: { 'Accept-Language': 'en' } });

describe('a database that went silent', () => {
  it('answers 503 with Retry-After within the query timeout instead of waiting, then serves every request once the network is back', async () => {
    expect((await pay()).status).toBe(200);
    proxy.silence(3_000);
    const started = Date.now();
    const during = await pay();
    expect(during.status, during.text).toBe(503);
    expect(during.headers.get('retry-after')).toBeTruthy();
    expect(Date.now() - started).toBeLessThan(QUERY_TIMEOUT_MS * 4);

    // Back: within a few seconds payments go through again, and then every one does.
    await new Promise((resolve) => setTimeout(resolve, 3_200));
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) status = (await pay()).status;
    expect(status).toBe(200);
    const after = await Promise.all(Array.from({ length: 12 }, () => pay()));
    expect(after.map((r) => r.status)).toEqual(Array(12).fill(200));
  }, 60_000);

  it('a transaction whose statement went unanswered gives no connection back with it outstanding; the pool then recovers', async () => {
    const db = t.gateway.services.db;
    // The silence starts inside a transaction: its next statement and its ROLLBACK go unanswered,
    // and the connections open now stay silent for good (new ones work after the 3 s).
    const failed = await db
      .$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        proxy.silence(3_000);
        await tx.$queryRaw`SELECT 2`;
      })
      .then(() => null, (err: unknown) => err);
    expect(String(failed)).toMatch(/Query read timeout|Transaction/);
    const pool = poolOf(db) as unknown as { _idle: Array<{ client: { _activeQuery?: unknown; _queryQueue: unknown[] } }> };
    expect(pool._idle.filter(({ client }) => client._activeQuery || client._queryQueue.length).length).toBe(0);

    await new Promise((resolve) => setTimeout(resolve, 3_200));
    // Each silent connection fails its next statement once and is dropped; then every request passes.
    const deadline = Date.now() + 20_000;
    let statuses: number[] = [0];
    while (Date.now() < deadline && !statuses.every((s) => s === 200)) statuses = (await Promise.all(Array.from({ length: 12 }, () => pay()))).map((r) => r.status);
    expect(statuses).toEqual(Array(12).fill(200));
    for (let round = 0; round < 2; round++) expect((await Promise.all(Array.from({ length: 12 }, () => pay()))).map((r) => r.status)).toEqual(Array(12).fill(200));
  }, 60_000);
});
