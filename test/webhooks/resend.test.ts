// Resend by hand (contract: Delivery rules): goes at once, with the same id and body, to the address
// stored on the notification, even when that address was since disabled or deleted.
import { describe, expect, it } from 'vitest';
import type { Merchant } from '../helpers/gateway.ts';
import type { Receiver } from '../helpers/receiver.ts';
import { useGateway } from '../helpers/fixture.ts';
import { attemptsRecorded, deliveryRounds, emitEvent, notificationsOf } from '../helpers/webhooks.ts';
import { addWebhookAddress, deleteWebhookAddress, setWebhookEnabled } from '../../src/domain/webhooks/addresses.ts';
import { resendNotification } from '../../src/domain/webhooks/delivery.ts';
import { verifyWebhook } from '../../src/domain/signatures.ts';
import { DomainError } from '../../src/domain/errors.ts';
import type { Workspace } from '../../src/generated/prisma/client.ts';

const gw = useGateway();
const { t } = gw;

async function setup(): Promise<{ m: Merchant; ws: Workspace; r: Receiver }> {
  const m = await gw.seed();
  const ws = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
  const r = await gw.startReceiver();
  return { m, ws, r };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError) return `${err.kind}:${err.issues[0]!.code}`;
    throw err;
  }
  return 'ok';
}

/** One notification that used all 5 attempts against a 500-answering receiver. */
async function exhausted(ws: Workspace, r: Receiver) {
  r.respondWith(500);
  const address = await addWebhookAddress(t.gateway.services, ws, { url: `${r.url}/hooks?a=1`, allEvents: true });
  const { recordToken } = await emitEvent(t, ws.id, 'transaction.successful');
  const [n] = await notificationsOf(t, { recordToken });
  t.clock.advance(30_000);
  for (const [i, wait] of [60_000, 300_000, 900_000, 1_800_000].entries()) {
    await attemptsRecorded(t, n!.id, i + 1);
    t.clock.advance(wait);
  }
  const failed = await attemptsRecorded(t, n!.id, 5);
  expect(failed.status).toBe('failed');
  return { address, n: failed };
}

describe('resendNotification', () => {
  it('sends a failed notification at once with the same id and body, signed anew', async () => {
    const { m, ws, r } = await setup();
    const { n } = await exhausted(ws, r);
    expect(r.requests).toHaveLength(5);
    r.respondWith(200);
    const at = t.clock.now();
    const resent = await resendNotification(t.gateway.services, ws, n.id);
    expect(r.requests).toHaveLength(6);
    const req = r.requests[5]!;
    expect(req.body).toBe(r.requests[0]!.body);
    expect(req.body).toBe(n.body);
    expect(JSON.parse(req.body).id).toBe(n.id);
    expect(req.path).toBe('/hooks?a=1');
    expect(req.headers['x-timestamp']).toBe(String(Math.floor(at.getTime() / 1000)));
    expect(verifyWebhook({ secret: m.apiSecret, timestamp: String(req.headers['x-timestamp']), signature: String(req.headers['x-signature']), path: '/hooks', rawBody: req.body, now: at })).toBe(true);
    expect(resent).toMatchObject({ id: n.id, status: 'delivered', attemptCount: 6, nextAttemptAt: null });
    expect(resent.deliveredAt!.getTime()).toBe(at.getTime());
    const attempts = await t.gateway.services.db.notificationAttempt.findMany({ where: { notificationId: n.id }, orderBy: { number: 'asc' } });
    expect(attempts.map((a) => a.httpStatus)).toEqual([500, 500, 500, 500, 500, 200]);
    expect(attempts[5]!.startedAt.getTime()).toBe(at.getTime());
  });

  it('a failed resend is recorded and schedules nothing', async () => {
    const { ws, r } = await setup();
    const { n } = await exhausted(ws, r);
    r.respondWith(502);
    const again = await resendNotification(t.gateway.services, ws, n.id);
    expect(again).toMatchObject({ status: 'failed', attemptCount: 6, nextAttemptAt: null });
    t.clock.advance(24 * 3600_000);
    await deliveryRounds(t, 2);
    expect(r.requests).toHaveLength(6);
  });

  it('goes to the stored URL after the address was disabled', async () => {
    const { ws, r } = await setup();
    const address = await addWebhookAddress(t.gateway.services, ws, { url: `${r.url}/disabled`, events: ['order.paid'] });
    const { recordToken } = await emitEvent(t, ws.id, 'order.paid', { transactionToken: crypto.randomUUID() });
    await setWebhookEnabled(t.gateway.services, ws, address.id, false);
    const [n] = await notificationsOf(t, { recordToken });
    expect(n!.status).toBe('dropped');
    const resent = await resendNotification(t.gateway.services, ws, n!.id);
    expect(resent.status).toBe('delivered');
    expect(r.requests).toHaveLength(1);
    expect(r.requests[0]!.path).toBe('/disabled');
    expect(r.requests[0]!.body).toBe(n!.body);
    t.clock.advance(30_000);
    await deliveryRounds(t, 2);
    expect(r.requests).toHaveLength(1);
  });

  it('goes to the stored URL after the address was deleted', async () => {
    const { ws, r } = await setup();
    r.respondWith(500);
    const address = await addWebhookAddress(t.gateway.services, ws, { url: `${r.url}/deleted`, allEvents: true });
    const { recordToken } = await emitEvent(t, ws.id, 'subscription.past_due');
    const [n] = await notificationsOf(t, { recordToken });
    t.clock.advance(30_000);
    await attemptsRecorded(t, n!.id, 1);
    await deleteWebhookAddress(t.gateway.services, ws, address.id);
    r.respondWith(200);
    const resent = await resendNotification(t.gateway.services, ws, n!.id);
    expect(resent).toMatchObject({ status: 'delivered', attemptCount: 2, addressId: null });
    expect(r.requests.map((q) => q.body)).toEqual([n!.body, n!.body]);
  });

  it('a delivered notification can be sent again; ids stay the same', async () => {
    const { ws, r } = await setup();
    await addWebhookAddress(t.gateway.services, ws, { url: `${r.url}/twice`, allEvents: true });
    const { recordToken } = await emitEvent(t, ws.id, 'transaction.expired');
    const [n] = await notificationsOf(t, { recordToken });
    t.clock.advance(30_000);
    expect((await attemptsRecorded(t, n!.id, 1)).status).toBe('delivered');
    await resendNotification(t.gateway.services, ws, n!.id);
    expect(r.requests.map((q) => JSON.parse(q.body).id)).toEqual([n!.id, n!.id]);
  });

  it('refuses a notification still in its schedule, another workspace’s, and a malformed id', async () => {
    const { ws, r } = await setup();
    const other = await setup();
    await addWebhookAddress(t.gateway.services, ws, { url: `${r.url}/pending`, allEvents: true });
    const { recordToken } = await emitEvent(t, ws.id, 'transaction.successful');
    const [n] = await notificationsOf(t, { recordToken });
    expect(await codeOf(resendNotification(t.gateway.services, ws, n!.id))).toBe('state:notification_still_pending');
    expect(await codeOf(resendNotification(t.gateway.services, other.ws, n!.id))).toBe('not_found:notification_not_found');
    expect(await codeOf(resendNotification(t.gateway.services, ws, 'not-a-uuid'))).toBe('not_found:notification_not_found');
    expect(await codeOf(resendNotification(t.gateway.services, ws, crypto.randomUUID()))).toBe('not_found:notification_not_found');
    expect(r.requests).toHaveLength(0);
  });

  it('two resends at the same moment make one attempt', async () => {
    const { ws, r } = await setup();
    const address = await addWebhookAddress(t.gateway.services, ws, { url: `${r.url}/race`, allEvents: true });
    const { recordToken } = await emitEvent(t, ws.id, 'transaction.successful');
    await setWebhookEnabled(t.gateway.services, ws, address.id, false);
    const [n] = await notificationsOf(t, { recordToken });
    r.respondWith(200, 300);
    const results = await Promise.all([codeOf(resendNotification(t.gateway.services, ws, n!.id)), codeOf(resendNotification(t.gateway.services, ws, n!.id))]);
    expect(results.sort()).toEqual(['ok', 'state:notification_still_pending']);
    expect(r.requests).toHaveLength(1);
    expect(await t.gateway.services.db.notificationAttempt.count({ where: { notificationId: n!.id } })).toBe(1);
  });
});
