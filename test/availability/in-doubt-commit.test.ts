// A payment's first write whose COMMIT reached PostgreSQL but whose answer was lost (the primary
// died just then): the gateway reaches the database through a TCP proxy that cuts the connection
// right after the server answered that COMMIT, so the row is kept while the request can only answer
// 503 "nothing was done". The key must stay bound to that row: a retry with the same key makes no
// second payment; it waits ("still being processed"), and once the interrupted-payments sweep has
// settled the row, it is answered that payment as it stands.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERRUPTED_AFTER_MS, recoverInterruptedPayments } from '../../src/domain/payments/interrupted.ts';
import { IDEMPOTENCY_LEASE_MS } from '../../src/domain/idempotency.ts';
import { createTestDatabase, servingUrl } from '../helpers/db.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { paymentBody } from '../helpers/payments.ts';
import { startPgProxy, type PgProxy } from '../helpers/pg-proxy.ts';

let proxy: PgProxy;
let t: TestGateway;
let m: Merchant;

beforeAll(async () => {
  proxy = await startPgProxy(servingUrl(await createTestDatabase()));
  t = await startTestGateway({ databaseUrl: proxy.url });
  m = await seedWorkspace(t, { slug: 'in-doubt' });
}, 60_000);

afterAll(async () => {
  await t?.stop();
  await proxy?.close();
}, 30_000);

const REFERENCE = 'IN-DOUBT-1';
const rowsOf = () => t.gateway.services.db.payment.findMany({ where: { channelReference: REFERENCE }, select: { id: true, status: true } });

describe("a payment whose first write's COMMIT answer was lost", () => {
  const body = () => paymentBody(m, { transaction: { channel_reference: REFERENCE } });
  const headers = { 'Idempotency-Key': 'in-doubt-1', 'Accept-Language': 'en' };

  it('is answered 503 with Retry-After, and its row was kept (never sent to the bank)', async () => {
    const cut = proxy.cutAfterCommitOf('Payment');
    const first = await m.call('regular-payment', body(), { headers });
    await cut;
    expect(first.status, first.text).toBe(503);
    expect(first.headers.get('retry-after')).toBe('2');
    expect(await rowsOf()).toEqual([{ id: expect.any(String), status: 'started' }]);
  }, 30_000);

  it('a retry with the same key makes no second payment: it is told the request is still being processed', async () => {
    const retry = await m.call('regular-payment', body(), { headers });
    expect(retry.status, retry.text).toBe(409);
    t.clock.advance(IDEMPOTENCY_LEASE_MS + 1_000);
    const afterLease = await m.call('regular-payment', body(), { headers });
    expect(afterLease.status, afterLease.text).toBe(409);
    expect((await rowsOf()).length).toBe(1);
  }, 60_000);

  it('once the sweep settled the row, the retry is answered that payment, not charged again', async () => {
    t.clock.advance(INTERRUPTED_AFTER_MS + 1_000);
    await recoverInterruptedPayments(t.gateway.services);
    const [row] = await rowsOf();
    expect(row!.status).not.toBe('started');
    const retry = await m.call('regular-payment', body(), { headers });
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body.transaction.token).toBe(row!.id);
    expect(retry.body.result.successful).toBe(false);
    expect(await rowsOf()).toEqual([row]);
  }, 30_000);
});
