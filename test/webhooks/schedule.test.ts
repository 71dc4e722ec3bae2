// Delivery rules (contract: Events > Delivery rules) against a real receiver on 127.0.0.1, with the
// gateway's clock moved by the test: first attempt 30 s after the event, 5 attempts in all with
// waits of 60 s, 5 min, 15 min, 30 min, success on any 2xx, 3xx is a failure.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Merchant } from '../helpers/gateway.ts';
import type { Receiver } from '../helpers/receiver.ts';
import { useGateway } from '../helpers/fixture.ts';
import { paymentBody } from '../helpers/payments.ts';
import { attemptsRecorded, deliveryRounds, notificationsOf } from '../helpers/webhooks.ts';
import { addWebhookAddress } from '../../src/domain/webhooks/addresses.ts';

const gw = useGateway();
const { t } = gw;

/** A workspace whose one address (all events) points at a fresh receiver. */
async function merchantWithReceiver(path = '/hooks'): Promise<{ m: Merchant; receiver: Receiver }> {
  const m = await gw.seed();
  const receiver = await gw.startReceiver();
  const ws = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
  await addWebhookAddress(t.gateway.services, ws, { url: `${receiver.url}${path}`, allEvents: true });
  return { m, receiver };
}

/** One successful API payment; returns its single notification. */
async function paidNotification(m: Merchant) {
  const pay = await m.call('regular-payment', paymentBody(m));
  expect(pay.body.result.successful).toBe(true);
  const [n, ...more] = await notificationsOf(t, { recordToken: pay.body.transaction.token });
  expect(more).toHaveLength(0);
  return n!;
}

describe('first delivery', () => {
  it('goes exactly 30 s after the event, not a millisecond earlier', async () => {
    const { m, receiver } = await merchantWithReceiver();
    const eventAt = t.clock.now();
    const n = await paidNotification(m);
    expect(n.createdAt.getTime()).toBe(eventAt.getTime());
    expect(n.nextAttemptAt!.getTime() - n.createdAt.getTime()).toBe(30_000);

    await deliveryRounds(t);
    t.clock.advance(29_000);
    await deliveryRounds(t, 2);
    expect(receiver.requests).toHaveLength(0);
    t.clock.advance(999);
    await deliveryRounds(t, 2);
    expect(receiver.requests).toHaveLength(0);

    t.clock.advance(1);
    await deliveryRounds(t);
    expect(receiver.requests).toHaveLength(1);
    const done = await attemptsRecorded(t, n.id, 1);
    expect(done.status).toBe('delivered');
    expect(done.deliveredAt!.getTime()).toBe(eventAt.getTime() + 30_000);
    expect(done.attempts[0]!.startedAt.getTime()).toBe(eventAt.getTime() + 30_000);
    expect(done.attempts[0]!).toMatchObject({ number: 1, httpStatus: 200, responseExcerpt: 'ok', error: null });
  });
});

describe('retries', () => {
  it('makes exactly 5 attempts with waits of 60 s, 5 min, 15 min and 30 min, then fails for good', async () => {
    const { m, receiver } = await merchantWithReceiver();
    receiver.respondWith(500);
    const n = await paidNotification(m);
    const eventAt = n.createdAt.getTime();

    t.clock.set(new Date(eventAt + 30_000));
    await receiver.waitFor(1);
    await attemptsRecorded(t, n.id, 1);

    const waits = [60_000, 5 * 60_000, 15 * 60_000, 30 * 60_000];
    for (const [i, wait] of waits.entries()) {
      const row = await t.gateway.services.db.notification.findUniqueOrThrow({ where: { id: n.id } });
      expect(row.status).toBe('pending');
      expect(row.attemptCount).toBe(i + 1);
      t.clock.advance(wait - 1);
      await deliveryRounds(t, 2);
      expect(receiver.requests, `attempt ${i + 2} must wait the full ${wait} ms`).toHaveLength(i + 1);
      t.clock.advance(1);
      await receiver.waitFor(i + 2);
      await attemptsRecorded(t, n.id, i + 2);
    }

    const failed = await t.gateway.services.db.notification.findUniqueOrThrow({ where: { id: n.id }, include: { attempts: { orderBy: { number: 'asc' } } } });
    expect(failed.status).toBe('failed');
    expect(failed.attemptCount).toBe(5);
    expect(failed.nextAttemptAt).toBeNull();
    expect(failed.deliveredAt).toBeNull();
    expect(failed.attempts.map((a) => a.number)).toEqual([1, 2, 3, 4, 5]);
    const starts = failed.attempts.map((a) => a.startedAt.getTime() - eventAt);
    expect(starts).toEqual([30_000, 90_000, 390_000, 1_290_000, 3_090_000]);
    expect(failed.attempts.every((a) => a.httpStatus === 500 && a.responseExcerpt === 'ok' && a.error === null)).toBe(true);
    // Every attempt is signed when sent, so a late retry still passes the receiver's 5-minute check.
    expect(receiver.requests.map((q) => Number(q.headers['x-timestamp']))).toEqual(failed.attempts.map((a) => Math.floor(a.startedAt.getTime() / 1000)));
    expect(new Set(receiver.requests.map((q) => q.body)).size).toBe(1);

    // Nothing more, however long we wait.
    t.clock.advance(24 * 3600_000);
    await deliveryRounds(t, 2);
    expect(receiver.requests).toHaveLength(5);
    expect(new Set(receiver.requests.map((r) => JSON.parse(r.body).id))).toEqual(new Set([n.id]));
  });

  it('stops retrying once the 3rd attempt succeeds', async () => {
    const { m, receiver } = await merchantWithReceiver();
    let calls = 0;
    receiver.respondWith(() => (++calls <= 2 ? 503 : 204));
    const n = await paidNotification(m);

    t.clock.advance(30_000);
    await receiver.waitFor(1);
    await attemptsRecorded(t, n.id, 1);
    t.clock.advance(60_000);
    await receiver.waitFor(2);
    await attemptsRecorded(t, n.id, 2);
    t.clock.advance(5 * 60_000);
    await receiver.waitFor(3);
    const done = await attemptsRecorded(t, n.id, 3);

    expect(done.status).toBe('delivered');
    expect(done.attemptCount).toBe(3);
    expect(done.nextAttemptAt).toBeNull();
    expect(done.attempts.map((a) => a.httpStatus)).toEqual([503, 503, 204]);

    t.clock.advance(2 * 3600_000);
    await deliveryRounds(t, 2);
    expect(receiver.requests).toHaveLength(3);
    expect(await t.gateway.services.db.notificationAttempt.count({ where: { notificationId: n.id } })).toBe(3);
  });

  it('counts a 301 as a failure and does not follow the redirect', async () => {
    const target = await gw.startReceiver();
    const redirects: string[] = [];
    const redirecting = http.createServer((req, res) => {
      redirects.push(req.url ?? '');
      req.resume();
      req.on('end', () => {
        res.writeHead(301, { Location: `${target.url}/moved`, 'Content-Type': 'text/plain' });
        res.end('moved permanently');
      });
    });
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
    try {
      const m = await gw.seed();
      const ws = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
      const port = (redirecting.address() as AddressInfo).port;
      await addWebhookAddress(t.gateway.services, ws, { url: `http://127.0.0.1:${port}/hooks`, events: ['transaction.successful'] });
      const n = await paidNotification(m);

      t.clock.advance(30_000);
      const after = await attemptsRecorded(t, n.id, 1);
      expect(redirects).toEqual(['/hooks']);
      expect(after.attempts[0]).toMatchObject({ httpStatus: 301, responseExcerpt: 'moved permanently', error: null });
      expect(after.status).toBe('pending');
      expect(after.nextAttemptAt!.getTime()).toBe(after.attempts[0]!.startedAt.getTime() + 60_000);
      await deliveryRounds(t, 2);
      expect(target.requests).toHaveLength(0);

      // The second attempt is another POST to the stored address, again not redirected.
      t.clock.advance(60_000);
      const second = await attemptsRecorded(t, n.id, 2);
      expect(second.attempts[1]!.httpStatus).toBe(301);
      expect(redirects).toHaveLength(2);
      expect(target.requests).toHaveLength(0);
    } finally {
      redirecting.closeAllConnections();
      await new Promise((r) => redirecting.close(r));
    }
  });

  it('counts a connection error as a failure and keeps the schedule', async () => {
    const { m, receiver } = await merchantWithReceiver();
    await receiver.close();
    const n = await paidNotification(m);
    t.clock.advance(30_000);
    const after = await attemptsRecorded(t, n.id, 1);
    expect(after.attempts[0]!.httpStatus).toBeNull();
    expect(after.attempts[0]!.error).toMatch(/ECONNREFUSED/);
    expect(after.status).toBe('pending');
    expect(after.nextAttemptAt!.getTime()).toBe(after.attempts[0]!.startedAt.getTime() + 60_000);
  });
});
