// PostgreSQL stops under a running gateway (an external database: its own embedded server, stopped
// with a fast shutdown as `pg_ctl stop -m fast` does, then started again on the same port and data
// folder). While it is down every kind of request answers 503 with Retry-After in its own form,
// never 500; once it is back the same gateway answers 200 again, without a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { claimIdempotencyKey, leftNothing, releaseFailedKey } from '../../src/domain/idempotency.ts';
import { createDb, type Db } from '../../src/db/client.ts';
import { schema } from '../../src/graphql/schema.ts';
import { createGraphQLServer } from '../../src/graphql/yoga.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { orderBody } from '../helpers/orders.ts';
import { freePort } from '../helpers/ports.ts';

let dir: string;
let pgPort: number;
let pg: EmbeddedDatabase | null = null;
let t: TestGateway;
let m: Merchant;
let token: string;
let checkoutUrl: string;
/** A key claimed by a request that the outage made answer 503: freed once the database is back. */
let failedClaim: string;

const BIN = { card: { bin: '41111111' }, transaction: { amount: '100.00', currency: 'TRY' } };
const startPg = () => startEmbeddedPostgres({ dir, port: pgPort, log: () => {} });

const rest = () => m.call('retrieve-bin', BIN, { headers: { 'Accept-Language': 'en' } });
const graphql = () =>
  fetch(`${t.gateway.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: '{ workspaces { slug } }' }),
  });
const page = () => fetch(checkoutUrl, { headers: { Accept: 'text/html,application/xhtml+xml', 'Accept-Language': 'en' } });

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'gateway-outage-'));
  pgPort = await freePort();
  pg = await startPg();
  await migrate(pg.url);
  t = await startTestGateway({ databaseUrl: pg.url });
  m = await seedWorkspace(t, { slug: 'outage' });
  token = await createAccessToken(t.gateway.services.db, 'outage', 'dashboard');
  const order = await m.call('order-payment', orderBody(m));
  expect(order.status, order.text).toBe(200);
  checkoutUrl = order.body.order.checkout_url;
}, 60_000);

afterAll(async () => {
  await t?.stop();
  await pg?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('the database stops under a running gateway', () => {
  it('answers 200 while it runs', async () => {
    expect((await rest()).status).toBe(200);
    expect((await graphql()).status).toBe(200);
    expect((await page()).status).toBe(200);
  });

  it('GraphQL: a database lost after the token was read (in a resolver) answers 503 too', async () => {
    // The token is read from the running database; every other statement goes to a port where
    // nothing listens, as if PostgreSQL went away between the two.
    const live = t.gateway.services.db;
    const gone = createDb(`postgresql://postgres:x@127.0.0.1:${await freePort()}/gateway`);
    const db = new Proxy(gone, { get: (target, prop) => (prop === 'accessToken' ? live.accessToken : Reflect.get(target, prop)) }) as Db;
    try {
      const yoga = createGraphQLServer(schema, { ...t.gateway.services, db });
      const res = await yoga.fetch('http://gateway.test/graphql', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: '{ workspaces { slug } }' }),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(((await res.json()) as { errors: unknown[] }).errors).toEqual([{ message: 'The service is busy; nothing was done. Please retry shortly.', extensions: { code: 'SERVICE_UNAVAILABLE' } }]);
    } finally {
      await gone.$disconnect();
    }
  });

  it('while it is down: REST, GraphQL, a checkout page and /healthz answer 503 with Retry-After, never 500', async () => {
    const db = t.gateway.services.db;
    const claim = await claimIdempotencyKey(db, t.clock, { workspaceId: m.workspaceId, operation: 'regular-payment', key: 'outage-1', hash: 'h' });
    expect(claim.state).toBe('claimed');
    const { id, claimedAt } = claim as { id: string; claimedAt: Date };
    failedClaim = id;
    await pg!.stop();
    pg = null;
    // The request's release (its look at what it left, then the delete) meets the outage too: it
    // does not fail the answer, it is done later.
    const left = { workspaceId: m.workspaceId, operation: 'regular-payment', claimedAt, body: { transaction: { channel_reference: 'OUTAGE-1' } } };
    await releaseFailedKey(db, failedClaim, () => leftNothing(t.gateway.services, left));
    for (let round = 0; round < 3; round++) {
      const r = await rest();
      expect(r.status, r.text).toBe(503);
      expect(r.headers.get('retry-after')).toBe('2');
      expect(r.body).toEqual({ result: { successful: false, message: 'The service is busy; nothing was done. Please retry shortly.' }, errors: {} });

      const g = await graphql();
      expect(g.status).toBe(503);
      expect(g.headers.get('retry-after')).toBe('2');
      const gBody = (await g.json()) as { data?: unknown; errors: Array<{ message: string; extensions: { code: string } }> };
      expect(gBody.errors).toEqual([{ message: 'The service is busy; nothing was done. Please retry shortly.', extensions: { code: 'SERVICE_UNAVAILABLE' } }]);

      const p = await page();
      expect(p.status).toBe(503);
      expect(p.headers.get('retry-after')).toBe('2');
      expect(p.headers.get('content-type')).toContain('text/html');
      expect(await p.text()).toContain('nothing was done');

      expect((await fetch(`${t.gateway.baseUrl}/healthz`)).status).toBe(503);
    }
    // Logged as what it is, not as an unhandled error.
    expect(t.logLines.filter((l) => l.includes('"unhandled request error"') || l.includes('"rest operation failed"'))).toEqual([]);
    expect(t.logLines.some((l) => l.includes('"database unavailable"'))).toBe(true);
  }, 30_000);

  it('once it is back on the same port and data, the same gateway answers 200 again at once', async () => {
    pg = await startPg();
    const back = Date.now();
    for (;;) {
      if ((await rest()).status === 200) break;
      expect(Date.now() - back, 'REST still refused 5 s after the database came back').toBeLessThan(5_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await graphql()).status).toBe(200);
    expect((await page()).status).toBe(200);
    expect((await fetch(`${t.gateway.baseUrl}/healthz`)).status).toBe(200);
  }, 30_000);

  it("a key claimed by a request answered 503 during the outage is freed once it is back, so the client's retry runs", async () => {
    const db = t.gateway.services.db;
    const deadline = Date.now() + 5_000;
    while ((await db.idempotencyRecord.count({ where: { id: failedClaim } })) > 0) {
      expect(Date.now(), 'the claim is still held 5 s after the database came back').toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});
