// Payment.timeline over /graphql: a 3D payment opened, answered, settled, its event delivered to a
// webhook address, then refunded once: every step with its time, in order, with the workspace's
// time zone; seen by the workspace and support, by no other workspace.
import { describe, expect, it } from 'vitest';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { isoMicro } from '../../src/domain/clock.ts';
import { addWebhookAddress } from '../../src/domain/webhooks/addresses.ts';
import { useGateway } from '../helpers/fixture.ts';
import { paymentBody, postCallback, visitAcs } from '../helpers/payments.ts';
import { attemptsRecorded, gql, notificationsOf } from '../helpers/webhooks.ts';
import { orderBody } from '../helpers/orders.ts';
import { payOnCheckout } from '../helpers/checkout.ts';

const { t, merchant: m, merchants, receiver } = useGateway({ merchant: true, merchants: { other: {} }, receiver: true, now: '2026-03-10T09:00:00.000Z' });

const QUERY = `query($token: String!) { payment(token: $token) { timeline { timeZone entries { at kind status name detail amount } } } }`;

async function timelineSeenBy(token: string, paymentToken: string) {
  await t.gateway.services.attempts.drain();
  const res = await gql(t, token, QUERY, { token: paymentToken });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.payment?.timeline ?? null;
}

const at = (start: Date, seconds: number) => isoMicro(new Date(start.getTime() + seconds * 1_000));

describe('Payment.timeline', () => {
  it('a 3D payment refunded once with a webhook delivered: each step, in order, in the workspace time zone', async () => {
    const db = t.gateway.services.db;
    const workspace = await db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    await addWebhookAddress(t.gateway.services, workspace, { url: `${receiver.url}/hooks`, events: ['transaction.successful'] });
    const start = t.clock.now();

    const started = await m.call('secure-payment', paymentBody(m, { transaction: { channel_reference: 'TIMELINE-1' } }));
    const token = started.body.transaction.token as string;
    t.clock.advance(1_000);
    const visit = await visitAcs(started.body.result.redirect_url, 'approve');
    t.clock.advance(1_000);
    expect((await postCallback(visit.callbackUrl!, visit.fields!)).status).toBeLessThan(400);
    const [notification] = await notificationsOf(t, { recordToken: token });
    t.clock.advance(30_000);
    await receiver.waitFor(1);
    await attemptsRecorded(t, notification!.id, 1);
    t.clock.advance(8_000);
    expect((await m.call('refund-payment', { transaction: { token }, amount: '10.00' })).body.result.successful).toBe(true);

    const timeline = await timelineSeenBy(await createAccessToken(db, m.team, 'dash'), token);

    const account = 'Simulator';
    const entry = (seconds: number, kind: string, more: Record<string, string | null> = {}) => ({ at: at(start, seconds), kind, status: null, name: null, detail: null, amount: null, ...more });
    expect(timeline).toEqual({
      timeZone: 'Europe/Istanbul',
      entries: [
        entry(0, 'created', { status: 'secure', name: 'api' }),
        entry(0, 'provider_call', { status: 'redirect', name: 'start3D', detail: account }),
        entry(1, 'three_ds_opened'),
        entry(2, 'three_ds_answered'),
        entry(2, 'provider_call', { status: 'succeeded', name: 'complete3D', detail: account }),
        entry(2, 'settled', { status: 'successful' }),
        entry(2, 'event', { name: 'transaction.successful' }),
        entry(32, 'webhook_attempt', { status: '200', name: 'transaction.successful', detail: `${receiver.url}/hooks` }),
        entry(40, 'refund', { status: 'succeeded', amount: '10.00' }),
        entry(40, 'provider_call', { status: 'succeeded', name: 'refund', detail: account }),
        entry(40, 'event', { name: 'transaction.payment_refunded' }),
      ],
    });

    expect(await timelineSeenBy(await createAccessToken(db, null, 'support'), token)).toEqual(timeline);
    expect(await timelineSeenBy(await createAccessToken(db, merchants.other.team, 'dash'), token)).toBeNull();
  });

  it("an order's payment: the order's events, which name the payment as their transaction", async () => {
    const order = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'TIMELINE-ORD-1' } }));
    await payOnCheckout(order.body.order.checkout_url, {});
    const payment = await t.gateway.services.db.payment.findFirstOrThrow({ where: { orderId: order.body.order.token } });
    const timeline = await timelineSeenBy(await createAccessToken(t.gateway.services.db, m.team, 'dash'), payment.id);
    const events = timeline.entries.filter((e: { kind: string }) => e.kind === 'event').map((e: { name: string }) => e.name);
    expect(events).toEqual(['order.paid']);
    expect(timeline.entries.map((e: { kind: string }) => e.kind)).toEqual(['created', 'provider_call', 'three_ds_opened', 'three_ds_answered', 'provider_call', 'settled', 'event']);
  });

  it('a declined payment: created, the declined charge with its error code, settled as failed with it', async () => {
    const res = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'TIMELINE-2' }, card: { number: '4000000000000002' } }));
    const timeline = await timelineSeenBy(await createAccessToken(t.gateway.services.db, m.team, 'dash'), res.body.transaction.token);
    expect(timeline.entries.map((e: { kind: string; status: string; detail: string }) => [e.kind, e.status, e.detail])).toEqual([
      ['created', 'non_secure', null],
      ['provider_call', 'declined', 'Simulator · insufficient_funds'],
      ['settled', 'failed', 'insufficient_funds'],
      ['event', null, null],
    ]);
  });
});
