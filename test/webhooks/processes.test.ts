// The schedule lives in the database: a gateway restarted mid-schedule continues it, and several
// gateway processes on one database send each attempt once.
import { describe, expect, it } from 'vitest';
import { seedWorkspace } from '../helpers/gateway.ts';
import type { Receiver } from '../helpers/receiver.ts';
import { useResources } from '../helpers/fixture.ts';
import { paymentBody } from '../helpers/payments.ts';
import { call } from '../helpers/client.ts';
import { attemptsRecorded, deliveryRounds, emitEvent, eventually, notificationsOf } from '../helpers/webhooks.ts';
import { addWebhookAddress } from '../../src/domain/webhooks/addresses.ts';
import { deliverDue } from '../../src/domain/webhooks/delivery.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { DELIVER_WEBHOOKS_JOB } from '../../src/jobs/deliver-webhooks.ts';

// Gateways are started by the tests themselves: restarts and a second process on one database.
const { startGateway: gateway, startReceiver: receiver } = useResources();

function idsOf(r: Receiver): string[] {
  return r.requests.map((q) => JSON.parse(q.body).id as string);
}

describe('restart mid-schedule', () => {
  it('a new process on the same database makes attempt 2 at +60 s and sends nothing twice', async () => {
    const clock = new ManualClock();
    const first = await gateway({ clock });
    const r = await receiver();
    r.respondWith(500);
    const m = await seedWorkspace(first);
    const ws = await first.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    await addWebhookAddress(first.gateway.services, ws, { url: `${r.url}/restart`, allEvents: true });
    const pay = await m.call('regular-payment', paymentBody(m));
    const [n] = await notificationsOf(first, { recordToken: pay.body.transaction.token });

    clock.advance(30_000);
    const afterFirst = await attemptsRecorded(first, n!.id, 1);
    const firstAt = afterFirst.attempts[0]!.startedAt.getTime();
    expect(afterFirst.nextAttemptAt!.getTime()).toBe(firstAt + 60_000);
    await first.stop();

    const second = await gateway({ databaseUrl: first.databaseUrl, clock });
    r.respondWith(200);
    await deliveryRounds(second, 2);
    expect(r.requests).toHaveLength(1);
    clock.advance(59_999);
    await deliveryRounds(second, 2);
    expect(r.requests).toHaveLength(1);
    clock.advance(1);
    await r.waitFor(2);
    const done = await attemptsRecorded(second, n!.id, 2);
    expect(done.status).toBe('delivered');
    expect(done.attempts.map((a) => [a.number, a.startedAt.getTime() - firstAt, a.httpStatus])).toEqual([
      [1, 0, 500],
      [2, 60_000, 200],
    ]);

    clock.advance(3600_000);
    await deliveryRounds(second, 2);
    expect(idsOf(r)).toEqual([n!.id, n!.id]);
  });

  it('a notification queued before the restart gets its first attempt from the new process', async () => {
    const clock = new ManualClock();
    const first = await gateway({ clock });
    const r = await receiver();
    const m = await seedWorkspace(first);
    const ws = await first.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    await addWebhookAddress(first.gateway.services, ws, { url: `${r.url}/queued`, events: ['transaction.successful'] });
    const pay = await m.call('regular-payment', paymentBody(m));
    await first.stop();
    const second = await gateway({ databaseUrl: first.databaseUrl, clock });
    clock.advance(30_000);
    const [req] = await r.waitFor(1);
    expect(JSON.parse(req!.body).transaction.token).toBe(pay.body.transaction.token);
    await deliveryRounds(second, 2);
    expect(r.requests).toHaveLength(1);
  });
});

describe('two processes on one database', () => {
  it('deliver each attempt of 30 notifications exactly once', { timeout: 90_000 }, async () => {
    const clock = new ManualClock();
    const a = await gateway({ clock });
    const b = await gateway({ databaseUrl: a.databaseUrl, clock });
    const r = await receiver();
    // Each notification fails its first attempt and succeeds on the second.
    const seen = new Map<string, number>();
    r.respondWith((q) => {
      const id = JSON.parse(q.body).id as string;
      seen.set(id, (seen.get(id) ?? 0) + 1);
      return seen.get(id) === 1 ? 500 : 200;
    });
    const m = await seedWorkspace(a);
    const ws = await a.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    await addWebhookAddress(a.gateway.services, ws, { url: `${r.url}/shared`, allEvents: true });

    // 20 payments through the two processes' HTTP servers, 10 events recorded directly.
    for (let i = 0; i < 10; i++) {
      expect((await m.call('regular-payment', paymentBody(m))).body.result.successful).toBe(true);
      expect((await call(b.gateway.baseUrl, m, 'regular-payment', paymentBody(m))).body.result.successful).toBe(true);
    }
    for (let i = 0; i < 10; i++) await emitEvent(a, ws.id, 'subscription.active', { transactionToken: crypto.randomUUID() });
    const all = await notificationsOf(a, { workspaceId: ws.id });
    expect(all).toHaveLength(30);
    const expected = all.map((n) => n.id).sort();

    const agendaRows = await a.gateway.services.db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM agenda.agenda_jobs WHERE name = ${DELIVER_WEBHOOKS_JOB}`;
    expect(Number(agendaRows[0]!.n)).toBe(1);

    for (const [round, wait] of [[1, 30_000], [2, 60_000]] as const) {
      clock.advance(wait);
      // Besides the job (which either process may run), both processes sweep at the same moment.
      await Promise.all([deliverDue(a.gateway.services), deliverDue(b.gateway.services), deliverDue(a.gateway.services), deliverDue(b.gateway.services)]);
      await r.waitFor(30 * round, 30_000);
      await eventually(async () => (await a.gateway.services.db.notificationAttempt.count({ where: { notification: { workspaceId: ws.id } } })) === 30 * round, `round ${round} recorded`);
      await deliveryRounds(a, 2);
      expect(idsOf(r).length).toBe(30 * round);
      expect([...new Set(idsOf(r))].sort()).toEqual(expected);
      expect([...seen.values()].every((count) => count === round)).toBe(true);
    }

    const final = await notificationsOf(a, { workspaceId: ws.id });
    expect(final.every((n) => n.status === 'delivered' && n.attemptCount === 2)).toBe(true);
    expect(final.every((n) => n.attempts.map((x) => x.number).join() === '1,2')).toBe(true);
    clock.advance(3600_000);
    await deliveryRounds(b, 2);
    expect(r.requests).toHaveLength(60);
  });
});

describe('claims', () => {
  it('a process holds only the notifications it is sending, each for longer than the timeout', { timeout: 60_000 }, async () => {
    const clock = new ManualClock();
    const t = await gateway({ clock, env: { WEBHOOK_CONCURRENCY: '1', WEBHOOK_TIMEOUT_MS: '180000' } });
    const r = await receiver();
    // Each request is held long enough for the check below to run while it is still open, also
    // on a loaded machine (with 400 ms a slow check once saw the next claim already made).
    r.respondWith(200, 2_000);
    const m = await seedWorkspace(t);
    const ws = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    await addWebhookAddress(t.gateway.services, ws, { url: `${r.url}/one-at-a-time`, allEvents: true });
    for (let i = 0; i < 3; i++) await emitEvent(t, ws.id, 'transaction.successful');
    clock.advance(30_000);
    const db = t.gateway.services.db;
    for (let i = 1; i <= 3; i++) {
      await r.waitFor(i);
      // While one request is at the receiver, the other due notifications are not held by this
      // process (another process may take them): a queued row cannot outlive its lease.
      const leased = await db.notification.findMany({ where: { workspaceId: ws.id, leasedUntil: { not: null } } });
      expect(leased).toHaveLength(1);
      expect(leased[0]!.leasedUntil!.getTime() - clock.now().getTime()).toBeGreaterThanOrEqual(180_000);
    }
    await eventually(async () => (await db.notification.count({ where: { workspaceId: ws.id, status: 'delivered' } })) === 3, 'three deliveries');
    expect(r.requests).toHaveLength(3);
  });
});
