// Which addresses get a notification (contract: Address configuration): one per address that selected
// the event, none when no address did; a disabled or deleted address gets nothing, including
// notifications already queued.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Merchant } from '../helpers/gateway.ts';
import type { Receiver } from '../helpers/receiver.ts';
import { useGateway } from '../helpers/fixture.ts';
import { paymentBody } from '../helpers/payments.ts';
import { attemptsRecorded, deliveryRounds, emitEvent, notificationsOf } from '../helpers/webhooks.ts';
import { addWebhookAddress, deleteWebhookAddress, setWebhookEnabled, setWebhookEvents } from '../../src/domain/webhooks/addresses.ts';
import type { Workspace } from '../../src/generated/prisma/client.ts';
import { notificationBody } from '../../src/domain/webhooks/fanout.ts';

const gw = useGateway();
const { t } = gw;

async function setup(): Promise<{ m: Merchant; ws: Workspace; a: Receiver; b: Receiver }> {
  const m = await gw.seed();
  const ws = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
  const a = await gw.startReceiver();
  const b = await gw.startReceiver();
  return { m, ws, a, b };
}

describe('fan-out', () => {
  it('an event selected by two addresses gives two notifications with different ids', async () => {
    const { m, ws, a, b } = await setup();
    await addWebhookAddress(t.gateway.services, ws, { url: `${a.url}/a`, events: ['transaction.successful', 'transaction.failed'] });
    await addWebhookAddress(t.gateway.services, ws, { url: `${b.url}/b`, allEvents: true });
    const pay = await m.call('regular-payment', paymentBody(m));
    const token: string = pay.body.transaction.token;
    const ns = await notificationsOf(t, { recordToken: token });
    expect(ns).toHaveLength(2);
    expect(ns[0]!.id).not.toBe(ns[1]!.id);
    expect(ns[0]!.outboxEventId).toBe(ns[1]!.outboxEventId);

    t.clock.advance(30_000);
    const [ra] = await a.waitFor(1);
    const [rb] = await b.waitFor(1);
    const ba = JSON.parse(ra!.body);
    const bb = JSON.parse(rb!.body);
    expect(ba.id).not.toBe(bb.id);
    expect(new Set([ba.id, bb.id])).toEqual(new Set(ns.map((n) => n.id)));
    expect({ ...ba, id: null }).toEqual({ ...bb, id: null });
    await deliveryRounds(t, 2);
    expect(a.requests).toHaveLength(1);
    expect(b.requests).toHaveLength(1);
  });

  it('an event selected by no address gives no notification and no request', async () => {
    const { m, ws, a } = await setup();
    await addWebhookAddress(t.gateway.services, ws, { url: `${a.url}/only-failures`, events: ['transaction.failed'] });
    const pay = await m.call('regular-payment', paymentBody(m));
    expect(pay.body.result.successful).toBe(true);
    expect(await notificationsOf(t, { recordToken: pay.body.transaction.token })).toHaveLength(0);
    t.clock.advance(30_000);
    await deliveryRounds(t, 2);
    expect(a.requests).toHaveLength(0);
  });

  it('a workspace without addresses gets nothing; another workspace’s address never sees its events', async () => {
    const quiet = await setup();
    const loud = await setup();
    await addWebhookAddress(t.gateway.services, loud.ws, { url: `${loud.a.url}/all`, allEvents: true });
    const pay = await quiet.m.call('regular-payment', paymentBody(quiet.m));
    expect(await notificationsOf(t, { recordToken: pay.body.transaction.token })).toHaveLength(0);
    t.clock.advance(30_000);
    await deliveryRounds(t, 2);
    expect(loud.a.requests).toHaveLength(0);
  });

  it('a changed selection applies to later events', async () => {
    const { ws, a } = await setup();
    const address = await addWebhookAddress(t.gateway.services, ws, { url: `${a.url}/x`, events: ['order.paid'] });
    expect((await emitEvent(t, ws.id, 'subscription.active').then((e) => notificationsOf(t, { recordToken: e.recordToken }))).length).toBe(0);
    await setWebhookEvents(t.gateway.services, ws, address.id, ['subscription.active'], false);
    expect((await emitEvent(t, ws.id, 'subscription.active').then((e) => notificationsOf(t, { recordToken: e.recordToken }))).length).toBe(1);
    expect((await emitEvent(t, ws.id, 'order.paid').then((e) => notificationsOf(t, { recordToken: e.recordToken }))).length).toBe(0);
    t.clock.advance(30_000);
    await a.waitFor(1);
    await deliveryRounds(t, 2);
    expect(a.requests.map((r) => JSON.parse(r.body).event)).toEqual(['subscription.active']);
  });
});

describe('disabled and deleted addresses', () => {
  it('disabling drops queued notifications at once; the receiver gets nothing', async () => {
    const { ws, a, b } = await setup();
    const off = await addWebhookAddress(t.gateway.services, ws, { url: `${a.url}/off`, allEvents: true });
    await addWebhookAddress(t.gateway.services, ws, { url: `${b.url}/on`, allEvents: true });
    const { recordToken } = await emitEvent(t, ws.id, 'transaction.successful');
    await setWebhookEnabled(t.gateway.services, ws, off.id, false);
    const ns = await notificationsOf(t, { recordToken });
    expect(ns.find((n) => n.addressId === off.id)).toMatchObject({ status: 'dropped', nextAttemptAt: null, attemptCount: 0 });

    t.clock.advance(30_000);
    await b.waitFor(1);
    await deliveryRounds(t, 2);
    expect(a.requests).toHaveLength(0);

    // Later events are not even queued for it, and enabling it again does not revive the dropped one.
    const later = await emitEvent(t, ws.id, 'transaction.successful');
    expect((await notificationsOf(t, { recordToken: later.recordToken })).map((n) => n.addressId)).not.toContain(off.id);
    await setWebhookEnabled(t.gateway.services, ws, off.id, true);
    t.clock.advance(30_000);
    await b.waitFor(2);
    await deliveryRounds(t, 2);
    expect(a.requests).toHaveLength(0);
    expect((await notificationsOf(t, { recordToken })).find((n) => n.addressId === off.id)!.status).toBe('dropped');

    const after = await emitEvent(t, ws.id, 'transaction.successful');
    t.clock.advance(30_000);
    const [req] = await a.waitFor(1);
    expect(JSON.parse(req!.body).transaction.token).toBe(after.recordToken);
  });

  it('disabling between attempts stops the retries', async () => {
    const { ws, a } = await setup();
    a.respondWith(500);
    const address = await addWebhookAddress(t.gateway.services, ws, { url: `${a.url}/flaky`, allEvents: true });
    const { recordToken } = await emitEvent(t, ws.id, 'transaction.failed');
    const [n] = await notificationsOf(t, { recordToken });
    t.clock.advance(30_000);
    await attemptsRecorded(t, n!.id, 1);
    await setWebhookEnabled(t.gateway.services, ws, address.id, false);
    t.clock.advance(60 * 60_000);
    await deliveryRounds(t, 2);
    expect(a.requests).toHaveLength(1);
    const row = await t.gateway.services.db.notification.findUniqueOrThrow({ where: { id: n!.id } });
    expect(row).toMatchObject({ status: 'dropped', attemptCount: 1, nextAttemptAt: null });
  });

  it('an address disabled after its notification was due but not yet sent still sends nothing', async () => {
    const { ws, a } = await setup();
    const address = await addWebhookAddress(t.gateway.services, ws, { url: `${a.url}/late`, allEvents: true });
    const { recordToken } = await emitEvent(t, ws.id, 'transaction.successful');
    // Disabled behind the domain's back (as another process might): the delivery job checks again.
    await t.gateway.services.db.webhookAddress.update({ where: { id: address.id }, data: { enabled: false } });
    t.clock.advance(30_000);
    await deliveryRounds(t, 2);
    expect(a.requests).toHaveLength(0);
    const [n] = await notificationsOf(t, { recordToken });
    expect(n!.status).toBe('dropped');
  });

  it('deleting drops queued notifications and keeps them listed with their URL', async () => {
    const { ws, a } = await setup();
    const address = await addWebhookAddress(t.gateway.services, ws, { url: `${a.url}/gone`, events: ['transaction.successful'] });
    const { recordToken } = await emitEvent(t, ws.id, 'transaction.successful');
    await deleteWebhookAddress(t.gateway.services, ws, address.id);
    t.clock.advance(30_000);
    await deliveryRounds(t, 2);
    expect(a.requests).toHaveLength(0);
    const [n] = await notificationsOf(t, { recordToken });
    expect(n).toMatchObject({ status: 'dropped', addressId: null, url: `${a.url}/gone` });
    expect(await t.gateway.services.db.webhookAddress.count({ where: { id: address.id } })).toBe(0);
  });
});

describe('the workspace clock on events', () => {
  it('a test clock ahead stamps the event and its body with the workspace time, while the first attempt is due on the gateway clock', async () => {
    const { m, ws, a } = await setup();
    const ahead = 86_400_000n + 1_234n;
    await t.gateway.services.db.workspace.update({ where: { id: ws.id }, data: { testClockOffsetMs: ahead } });
    await t.gateway.admission.synced();
    await addWebhookAddress(t.gateway.services, ws, { url: `${a.url}/clock`, allEvents: true });
    const gatewayNow = t.clock.now();

    const pay = await m.call('regular-payment', paymentBody(m));

    const [n] = await notificationsOf(t, { recordToken: pay.body.transaction.token });
    const event = await t.gateway.services.db.outboxEvent.findUniqueOrThrow({ where: { id: n!.outboxEventId } });
    const workspaceNow = new Date(gatewayNow.getTime() + Number(ahead));
    expect(event.createdAt).toEqual(workspaceNow);
    expect(JSON.parse(n!.body).created_at.slice(0, 23)).toBe(workspaceNow.toISOString().slice(0, 23));
    expect(n!.nextAttemptAt).toEqual(new Date(gatewayNow.getTime() + 30_000));
  });
});

describe('the body, byte for byte', () => {
  // Bodies are written by the event's own statement, which fills each notification's id and
  // created_at into a body rendered once; what is stored must be exactly notificationBody's.
  it('a payment\'s event and an event recorded in a transaction store the bodies notificationBody renders', async () => {
    const { m, ws, a } = await setup();
    await addWebhookAddress(t.gateway.services, ws, { url: `${a.url}/bytes`, allEvents: true });
    const pay = await m.call('regular-payment', paymentBody(m));
    const payment: string = pay.body.transaction.token;
    const link = await emitEvent(t, m.workspaceId, 'payment_link.paid', { linkPaymentToken: randomUUID(), transactionToken: randomUUID() });
    const db = t.gateway.services.db;
    for (const recordToken of [payment, link.recordToken]) {
      const [n] = await notificationsOf(t, { recordToken });
      const event = await db.outboxEvent.findUniqueOrThrow({ where: { id: n!.outboxEventId } });
      expect(n!.body).toBe(notificationBody(n!.id, event));
    }
    const [paid] = await notificationsOf(t, { recordToken: payment });
    const created = (await db.outboxEvent.findUniqueOrThrow({ where: { id: paid!.outboxEventId } })).createdAt;
    expect(paid!.body).toBe(`{"id":"${paid!.id}","event":"transaction.successful","created_at":"${created.toISOString().replace('Z', '000Z')}","transaction":{"token":"${payment}"}}`);
  });
});
