// The batched delivery path (docs/performance.md): many notifications claimed in one statement, attempts in
// flight together, results written many per statement. Every notification must get its own
// result (status, attempt number, next attempt time, attempt row), a rotated API secret must sign
// the very next attempt in every process, and two delivery loops on one database never send one
// attempt twice.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { seedWorkspace, type TestGateway } from '../helpers/gateway.ts';
import type { Receiver } from '../helpers/receiver.ts';
import { useResources } from '../helpers/fixture.ts';
import { eventually, notificationsOf } from '../helpers/webhooks.ts';
import { addWebhookAddress } from '../../src/domain/webhooks/addresses.ts';
import { deliverDue, MAX_ATTEMPTS, RETRY_WAITS_MS } from '../../src/domain/webhooks/delivery.ts';
import { recordEvent } from '../../src/domain/events.ts';
import { rotateCredentials } from '../../src/domain/workspaces.ts';
import { verifyWebhook, webhookPath } from '../../src/domain/signatures.ts';
import { ManualClock } from '../../src/domain/clock.ts';

const { startGateway, startReceiver } = useResources();

/** The deliver-webhooks job stays out of the way: the test calls deliverDue itself. */
const NO_POLLING = { WEBHOOK_POLL_INTERVAL_MS: '3600000', AGENDA_PROCESS_EVERY_MS: '3600000' };

/** Records `count` transaction.successful events in one transaction at the clock's time. */
async function emitMany(t: TestGateway, workspaceId: string, count: number): Promise<string[]> {
  const tokens = Array.from({ length: count }, () => randomUUID());
  const at = t.clock.now();
  await t.gateway.services.db.$transaction(async (tx) => {
    for (const recordToken of tokens) await recordEvent(tx, { workspaceId, kind: 'transaction.successful', recordToken }, at);
  }, { timeout: 60_000 });
  return tokens;
}

function idsOf(r: Receiver): string[] {
  return r.requests.map((q) => JSON.parse(q.body).id as string);
}

describe('one batch, mixed receivers', () => {
  it('each notification gets its own status, attempt number and next attempt time', { timeout: 90_000 }, async () => {
    const statements: string[] = [];
    // A timeout long enough for 60 attempts at once on a loaded machine, short enough for a test.
    const t = await startGateway({ env: { ...NO_POLLING, WEBHOOK_TIMEOUT_MS: '2000' }, onQuery: (sql) => statements.push(sql) });
    const m = await seedWorkspace(t);
    const s = t.gateway.services;
    const ws = await s.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });

    // One receiver per behaviour; every event goes to each of them.
    const behaviours = {
      ok: { status: 200, delay: 0 },
      noContent: { status: 204, delay: 0 },
      error: { status: 500, delay: 0 },
      redirect: { status: 301, delay: 0 },
      slow: { status: 200, delay: 5_000 },
      refused: { status: 200, delay: 0 },
    } as const;
    type Kind = keyof typeof behaviours;
    const receivers = {} as Record<Kind, Receiver>;
    const kindOfAddress = new Map<string, Kind>();
    for (const [kind, b] of Object.entries(behaviours) as [Kind, (typeof behaviours)[Kind]][]) {
      const r = await startReceiver();
      r.respondWith(b.status, b.delay);
      receivers[kind] = r;
      const address = await addWebhookAddress(s, ws, { url: `${r.url}/hooks/${kind}`, allEvents: true });
      kindOfAddress.set(address.id, kind);
    }
    await receivers.refused.close();

    // 10 events x 6 addresses; the events' notifications start from different attempt counts, so
    // one batch holds first attempts, middle ones and last ones (number 5 fails for good).
    const tokens = await emitMany(t, ws.id, 10);
    const before = new Map<string, number>();
    for (const [i, recordToken] of tokens.entries()) {
      await s.db.notification.updateMany({ where: { recordToken }, data: { attemptCount: i % MAX_ATTEMPTS } });
    }
    const queued = await notificationsOf(t, { workspaceId: ws.id });
    expect(queued).toHaveLength(60);
    for (const n of queued) before.set(n.id, n.attemptCount);

    t.clock.advance(30_000);
    const at = t.clock.now().getTime();
    statements.length = 0;
    expect(await deliverDue(s)).toBe(60);

    // One claim for all 60 (it asked for up to WEBHOOK_CONCURRENCY=100 and got fewer, so it stopped);
    // the results were written in batches, not one statement per attempt.
    const claims = statements.filter((q) => q.includes('FOR UPDATE SKIP LOCKED'));
    const writes = statements.filter((q) => q.includes('json_to_recordset'));
    expect(claims).toHaveLength(1);
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.length).toBeLessThan(60);

    const after = await notificationsOf(t, { workspaceId: ws.id });
    for (const n of after) {
      const kind = kindOfAddress.get(n.addressId!)!;
      const number = before.get(n.id)! + 1;
      const what = `${kind} notification at attempt ${number}`;
      expect(n.attempts, what).toHaveLength(1);
      const a = n.attempts[0]!;
      expect(a.number, what).toBe(number);
      expect(a.startedAt.getTime(), what).toBe(at);
      expect(n.attemptCount, what).toBe(number);
      expect(n.leasedUntil, what).toBeNull();
      switch (kind) {
        case 'ok':
        case 'noContent':
          expect(a, what).toMatchObject({ httpStatus: behaviours[kind].status, error: null });
          break;
        case 'error':
        case 'redirect':
          expect(a, what).toMatchObject({ httpStatus: behaviours[kind].status, responseExcerpt: 'ok', error: null });
          break;
        case 'slow':
          expect(a, what).toMatchObject({ httpStatus: null, error: 'timeout after 2000 ms' });
          break;
        case 'refused':
          expect(a.httpStatus, what).toBeNull();
          expect(a.error, what).toMatch(/ECONNREFUSED/);
          break;
      }
      if (kind === 'ok' || kind === 'noContent') {
        expect(n.status, what).toBe('delivered');
        expect(n.deliveredAt!.getTime(), what).toBe(at);
        expect(n.nextAttemptAt, what).toBeNull();
      } else if (number === MAX_ATTEMPTS) {
        expect(n.status, what).toBe('failed');
        expect(n.nextAttemptAt, what).toBeNull();
        expect(n.deliveredAt, what).toBeNull();
      } else {
        expect(n.status, what).toBe('pending');
        expect(n.nextAttemptAt!.getTime(), what).toBe(at + RETRY_WAITS_MS[number - 1]!);
        expect(n.deliveredAt, what).toBeNull();
      }
    }

    // Each receiver got exactly its own notifications, each once, signed for its own path.
    for (const kind of ['ok', 'noContent', 'error', 'redirect', 'slow'] as const) {
      const r = receivers[kind];
      await r.waitFor(10);
      const mine = after.filter((n) => kindOfAddress.get(n.addressId!) === kind);
      expect(idsOf(r).sort()).toEqual(mine.map((n) => n.id).sort());
      for (const q of r.requests) {
        const n = mine.find((x) => x.id === JSON.parse(q.body).id)!;
        expect(q.body).toBe(n.body);
        const ok = verifyWebhook({ secret: m.apiSecret, timestamp: String(q.headers['x-timestamp']), signature: String(q.headers['x-signature']), path: webhookPath(n.url), rawBody: q.body, now: t.clock.now() });
        expect(ok).toBe(true);
      }
    }

    // Nothing more is due now: a second run sends nothing.
    expect(await deliverDue(s)).toBe(0);
    expect(receivers.ok.requests).toHaveLength(10);
  });
});

describe('secret rotation', () => {
  it('the next attempt after a rotation is signed with the new secret, in every process', { timeout: 90_000 }, async () => {
    const clock = new ManualClock();
    const a = await startGateway({ clock, env: NO_POLLING });
    const b = await startGateway({ clock, databaseUrl: a.databaseUrl, env: NO_POLLING });
    const m = await seedWorkspace(a);
    const db = a.gateway.services.db;
    const ws = await db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    const r = await startReceiver();
    // The first notification fails once, so its retry comes after the rotation.
    const seen = new Set<string>();
    r.respondWith((q) => {
      const id = JSON.parse(q.body).id as string;
      const first = !seen.has(id);
      seen.add(id);
      return first && seen.size === 1 ? 500 : 200;
    });
    const address = await addWebhookAddress(a.gateway.services, ws, { url: `${r.url}/rotate`, allEvents: true });
    const path = webhookPath(address.url);
    const signedWith = (i: number, secret: string) => {
      const q = r.requests[i]!;
      return verifyWebhook({ secret, timestamp: String(q.headers['x-timestamp']), signature: String(q.headers['x-signature']), path, rawBody: q.body, now: clock.now() });
    };

    // Both processes sign with (and keep) the first secret.
    await emitMany(a, ws.id, 1);
    clock.advance(30_000);
    expect(await deliverDue(a.gateway.services)).toBe(1);
    await emitMany(a, ws.id, 1);
    clock.advance(30_000);
    expect(await deliverDue(b.gateway.services)).toBe(1);
    expect(r.requests).toHaveLength(2);
    expect([signedWith(0, m.apiSecret), signedWith(1, m.apiSecret)]).toEqual([true, true]);

    const rotated = await rotateCredentials(db, a.gateway.masterKey, m.team, clock);
    expect(rotated.apiSecret).not.toBe(m.apiSecret);

    // At once, no waiting for a cache to expire: a new notification through each process, and the
    // retry of one first sent with the old secret.
    await emitMany(a, ws.id, 1);
    clock.advance(30_000);
    expect(await deliverDue(a.gateway.services)).toBe(2); // the new one and the retry (60 s after the first)
    await emitMany(a, ws.id, 1);
    clock.advance(30_000);
    expect(await deliverDue(b.gateway.services)).toBe(1);
    expect(r.requests).toHaveLength(5);
    for (const i of [2, 3, 4]) {
      expect(signedWith(i, rotated.apiSecret), `request ${i}`).toBe(true);
      expect(signedWith(i, m.apiSecret), `request ${i}`).toBe(false);
    }
    const retried = await notificationsOf(a, { workspaceId: ws.id });
    expect(retried.every((n) => n.status === 'delivered')).toBe(true);
    expect(retried.map((n) => n.attemptCount).sort()).toEqual([1, 1, 1, 2]);
  });
});

describe('two delivery loops on one database', () => {
  it('send each attempt of 150 notifications once, claiming in many small batches', { timeout: 120_000 }, async () => {
    const clock = new ManualClock();
    // Small, different concurrencies: many claims from both processes interleave. The job runs too.
    const a = await startGateway({ clock, env: { WEBHOOK_CONCURRENCY: '7' } });
    const b = await startGateway({ clock, databaseUrl: a.databaseUrl, env: { WEBHOOK_CONCURRENCY: '13' } });
    const m = await seedWorkspace(a);
    const db = a.gateway.services.db;
    const ws = await db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    const r = await startReceiver();
    const seen = new Map<string, number>();
    r.respondWith((q) => {
      const id = JSON.parse(q.body).id as string;
      seen.set(id, (seen.get(id) ?? 0) + 1);
      return seen.get(id) === 1 ? 503 : 200;
    });
    await addWebhookAddress(a.gateway.services, ws, { url: `${r.url}/shared`, allEvents: true });
    await emitMany(a, ws.id, 150);
    const expected = (await notificationsOf(a, { workspaceId: ws.id })).map((n) => n.id).sort();
    expect(expected).toHaveLength(150);

    for (const [round, wait] of [[1, 30_000], [2, 60_000]] as const) {
      clock.advance(wait);
      await Promise.all([deliverDue(a.gateway.services), deliverDue(b.gateway.services), deliverDue(a.gateway.services), deliverDue(b.gateway.services)]);
      await r.waitFor(150 * round, 30_000);
      await eventually(async () => (await db.notificationAttempt.count({ where: { notification: { workspaceId: ws.id } } })) === 150 * round, `round ${round} recorded`);
      await eventually(async () => (await db.notification.count({ where: { workspaceId: ws.id, leasedUntil: { not: null } } })) === 0, `round ${round} released`);
      expect(r.requests).toHaveLength(150 * round);
      expect([...new Set(idsOf(r))].sort()).toEqual(expected);
      expect([...seen.values()].every((count) => count === round)).toBe(true);
    }
    const final = await notificationsOf(a, { workspaceId: ws.id });
    expect(final.every((n) => n.status === 'delivered' && n.attemptCount === 2 && n.attempts.map((x) => `${x.number}:${x.httpStatus}`).join() === '1:503,2:200')).toBe(true);
  });
});
