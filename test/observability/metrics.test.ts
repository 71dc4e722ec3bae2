// GET /metrics in Prometheus text format after a few calls: requests by operation and status with
// latency histograms, payments by status, the webhook queue, attempts and lag, job lag, pool use.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { deliveryRounds } from '../helpers/webhooks.ts';
import { addWebhookAddress } from '../../src/domain/webhooks/addresses.ts';
import { poolOf } from '../../src/db/client.ts';
import type pg from 'pg';

const { t, merchant: m, receiver } = useGateway({ merchant: true, receiver: true });

const scrape = async () => {
  const res = await fetch(`${t.gateway.baseUrl}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
};
/** The value of one sample, by its exact name and labels as printed. */
const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('metrics', () => {
  it('counts requests, payments, webhook deliveries and reports queue and pool figures', async () => {
    const ws = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    await addWebhookAddress(t.gateway.services, ws, { url: `${receiver.url}/hooks`, events: ['transaction.successful'] });
    for (const ref of ['M-1', 'M-2']) expect((await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: ref } }))).body.result.successful).toBe(true);
    const declined = await m.call('regular-payment', paymentBody(m, { card: { number: CARDS.insufficientFunds }, transaction: { channel_reference: 'M-3' } }));
    expect(declined.body.result.successful).toBe(false);
    expect((await m.call('retrieve-bin', { card: { bin: '41111111' } }, { secret: 'wrong' })).status).toBe(401);

    let text = await scrape();
    expect(sample(text, 'gateway_http_requests_total{operation="regular-payment",status="200"}')).toBe(3);
    expect(sample(text, 'gateway_http_requests_total{operation="retrieve-bin",status="401"}')).toBe(1);
    expect(sample(text, 'gateway_http_request_duration_seconds_count{operation="regular-payment",status="200"}')).toBe(3);
    expect(sample(text, 'gateway_http_request_duration_seconds_bucket{le="+Inf",operation="regular-payment",status="200"}')).toBe(3);
    expect(sample(text, 'gateway_payments{status="successful"}')).toBe(2);
    expect(sample(text, 'gateway_payments{status="failed"}')).toBe(1);
    expect(sample(text, 'gateway_webhook_queue_depth')).toBe(2);
    expect(sample(text, 'gateway_webhook_queue_lag_seconds')).toBe(0);
    expect(sample(text, 'gateway_job_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'gateway_db_pool_connections{state="max"}')).toBe(10);
    expect(sample(text, 'gateway_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    expect(text).toContain('# TYPE gateway_http_request_duration_seconds histogram');

    t.clock.advance(30_000);
    await receiver.waitFor(2);
    await deliveryRounds(t);
    text = await scrape();
    expect(sample(text, 'gateway_webhook_attempts_total{outcome="delivered"}')).toBe(2);
    expect(sample(text, 'gateway_webhook_delivery_lag_seconds_count')).toBe(2);
    expect(sample(text, 'gateway_webhook_queue_depth')).toBe(0);
    // The first scrape is counted too.
    expect(sample(text, 'gateway_http_requests_total{operation="metrics",status="200"}')).toBe(1);
  });

  it("reports each live account's routing health, 1 for its state", async () => {
    const healthOf = (text: string, state: string) => sample(text, `gateway_payment_account_health{account="${m.accountToken}",provider="simulator",state="${state}"}`);
    let text = await scrape();
    expect([healthOf(text, 'healthy'), healthOf(text, 'degraded'), healthOf(text, 'probing')]).toEqual([1, 0, 0]);
    await t.gateway.services.db.paymentAccount.update({ where: { id: m.accountToken }, data: { health: 'degraded', healthChangedAt: t.clock.now() } });
    text = await scrape();
    expect([healthOf(text, 'healthy'), healthOf(text, 'degraded'), healthOf(text, 'probing')]).toEqual([0, 1, 0]);
    await t.gateway.services.db.paymentAccount.update({ where: { id: m.accountToken }, data: { health: 'healthy' } });
  });

  it('names every series once with the gateway_ prefix (default metrics too)', async () => {
    const text = await scrape();
    const names = [...new Set(text.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => /^[a-zA-Z_:][\w:]*/.exec(l)![0]))];
    expect(names.length).toBeGreaterThan(20);
    for (const name of names) {
      expect(name.startsWith('gateway_'), name).toBe(true);
      // A word doubled at a prefix boundary (gateway_gateway_, gateway_process_process_).
      expect(/(^|_)([a-z]+)_\2_/.test(name), name).toBe(false);
    }
    expect(sample(text, 'gateway_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    // The examples README's metric table names.
    for (const name of ['gateway_process_resident_memory_bytes', 'gateway_nodejs_eventloop_lag_p99_seconds', 'gateway_nodejs_heap_size_used_bytes']) expect(names).toContain(name);
  });

  it('reads pool waiting 0 on an idle gateway and counts callers waiting while every connection is held', async () => {
    for (let i = 0; i < 3; i++) expect(sample(await scrape(), 'gateway_db_pool_connections{state="waiting"}')).toBe(0);

    const pool = poolOf(t.gateway.services.db)!;
    const held: pg.PoolClient[] = [];
    while (pool.totalCount < (pool.options.max ?? 10) || pool.idleCount > 0) held.push(await pool.connect());
    const queued = [pool.query('SELECT 1'), pool.query('SELECT 2')];
    // The pool figures are read first; the figures read from the database wait for a connection.
    const scraping = scrape();
    await new Promise((r) => setTimeout(r, 300));
    for (const c of held) c.release();
    await Promise.all(queued);
    expect(sample(await scraping, 'gateway_db_pool_connections{state="waiting"}')).toBeGreaterThanOrEqual(2);
    expect(sample(await scrape(), 'gateway_db_pool_connections{state="waiting"}')).toBe(0);
  });
});
