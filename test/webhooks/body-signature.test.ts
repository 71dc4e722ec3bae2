// What the merchant receives (contract: Events > Request sent to the merchant, Signature verification),
// checked by a verifier written here from the contract's text alone, not the gateway's own helper.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import type { ReceivedRequest } from '../helpers/receiver.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { attemptsRecorded, deliveryRounds, emitEvent, notificationsOf } from '../helpers/webhooks.ts';
import { addWebhookAddress } from '../../src/domain/webhooks/addresses.ts';
import type { EventKind } from '../../src/domain/events.ts';

/**
 * The merchant's check, from the contract: HMAC-SHA256 with the API secret over
 * `<X-Timestamp>\nPOST\n<path>\n<raw body>`, hex; `<path>` is the webhook address's path with the
 * leading slash, without the query string, `/` when empty; timestamps older than 5 minutes fail.
 */
function merchantVerifies(secret: string, addressUrl: string, req: ReceivedRequest, nowSeconds: number): boolean {
  const timestamp = req.headers['x-timestamp'];
  const signature = req.headers['x-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string' || !/^\d+$/.test(timestamp)) return false;
  if (nowSeconds - Number(timestamp) > 300) return false;
  const afterHost = addressUrl.replace(/^https?:\/\/[^/?#]*/, '');
  const pathOnly = afterHost.split(/[?#]/)[0]!;
  const path = pathOnly === '' ? '/' : pathOnly;
  const expected = createHmac('sha256', secret).update(`${timestamp}\nPOST\n${path}\n${req.body}`).digest('hex');
  return signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const gw = useGateway({ merchant: true, receiver: true });
const { t, merchant: m, receiver } = gw;
let addressUrl: string;

beforeAll(async () => {
  const ws = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
  addressUrl = `${receiver.url}/hooks/gateway?tenant=7&x=%20y`;
  await addWebhookAddress(t.gateway.services, ws, { url: addressUrl, allEvents: true });
});

/** Moves the clock past the first attempt and returns the requests for `recordToken`. */
async function deliveredFor(recordToken: string, count = 1): Promise<ReceivedRequest[]> {
  const ns = await notificationsOf(t, { recordToken });
  expect(ns).toHaveLength(count);
  t.clock.advance(30_000);
  for (const n of ns) await attemptsRecorded(t, n.id, 1);
  return receiver.requests.filter((r) => ns.some((n) => r.body.includes(n.id)));
}

function expectSignedFor(req: ReceivedRequest) {
  expect(req.method).toBe('POST');
  expect(req.path).toBe('/hooks/gateway?tenant=7&x=%20y');
  expect(req.headers['content-type']).toBe('application/json');
  expect(merchantVerifies(m.apiSecret, addressUrl, req, Math.floor(t.clock.now().getTime() / 1000))).toBe(true);
}

describe('body and signature of API payment events', () => {
  it('transaction.successful carries only id, event, created_at and transaction{token}', async () => {
    const eventAt = t.clock.now();
    const pay = await m.call('regular-payment', paymentBody(m));
    expect(pay.body.result.successful).toBe(true);
    const token: string = pay.body.transaction.token;
    const [req] = await deliveredFor(token);
    expectSignedFor(req!);
    const [n] = await notificationsOf(t, { recordToken: token });
    expect(req!.body).toBe(n!.body);
    const body = JSON.parse(req!.body);
    expect(Object.keys(body)).toEqual(['id', 'event', 'created_at', 'transaction']);
    expect(body).toEqual({ id: n!.id, event: 'transaction.successful', created_at: body.created_at, transaction: { token } });
    expect(body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(body.created_at).toMatch(ISO_UTC);
    expect(new Date(body.created_at).getTime()).toBe(eventAt.getTime());
    // X-Timestamp is when it was signed: the attempt, 30 s after the event.
    expect(Number(req!.headers['x-timestamp'])).toBe(Math.floor((eventAt.getTime() + 30_000) / 1000));
  });

  it('a tampered body, another path or another secret does not verify', async () => {
    const [req] = receiver.requests;
    const now = Math.floor(t.clock.now().getTime() / 1000);
    expect(merchantVerifies(m.apiSecret, addressUrl, { ...req!, body: req!.body.replace('transaction.successful', 'transaction.failed') }, now)).toBe(false);
    expect(merchantVerifies(m.apiSecret, `${receiver.url}/hooks/other`, req!, now)).toBe(false);
    expect(merchantVerifies('not-the-secret', addressUrl, req!, now)).toBe(false);
    expect(merchantVerifies(m.apiSecret, addressUrl, req!, Number(req!.headers['x-timestamp']) + 301)).toBe(false);
  });

  it('transaction.failed, transaction.payment_refunded and transaction.payment_cancelled have the same shape', async () => {
    const declined = await m.call('regular-payment', paymentBody(m, { card: { number: CARDS.insufficientFunds } }));
    expect(declined.body.result.successful).toBe(false);
    const refunded = await m.call('regular-payment', paymentBody(m));
    const refundToken: string = refunded.body.transaction.token;
    expect((await m.call('refund-payment', { transaction: { token: refundToken }, amount: '10.00' })).body.result.successful).toBe(true);
    const cancelled = await m.call('regular-payment', paymentBody(m));
    const cancelToken: string = cancelled.body.transaction.token;
    expect((await m.call('cancel-payment', { transaction: { token: cancelToken } })).body.result.successful).toBe(true);

    const failedReq = await deliveredFor(declined.body.transaction.token);
    const refundReqs = await deliveredFor(refundToken, 2);
    const cancelReqs = await deliveredFor(cancelToken, 2);
    const bodies = [...failedReq, ...refundReqs, ...cancelReqs].map((r) => {
      expectSignedFor(r);
      return JSON.parse(r.body);
    });
    for (const b of bodies) expect(Object.keys(b)).toEqual(['id', 'event', 'created_at', 'transaction']);
    const byEvent = (token: string) => bodies.filter((b) => b.transaction.token === token).map((b) => b.event).sort();
    expect(byEvent(declined.body.transaction.token)).toEqual(['transaction.failed']);
    expect(byEvent(refundToken)).toEqual(['transaction.payment_refunded', 'transaction.successful']);
    expect(byEvent(cancelToken)).toEqual(['transaction.payment_cancelled', 'transaction.successful']);
  });

  it('a payment whose provider did not answer sends nothing', async () => {
    const pay = await m.call('regular-payment', paymentBody(m, { card: { number: CARDS.timeout } }));
    expect(pay.body.result.successful).toBe(false);
    expect(await notificationsOf(t, { recordToken: pay.body.transaction.token })).toHaveLength(0);
  });
});

describe('body of order, link and subscription events', () => {
  const cases: Array<{ kind: EventKind; keys: string[] }> = [
    { kind: 'order.paid', keys: ['order', 'transaction'] },
    { kind: 'order.payment_refunded', keys: ['order', 'transaction'] },
    { kind: 'order.payment_cancelled', keys: ['order', 'transaction'] },
    { kind: 'payment_link.paid', keys: ['payment_link', 'link_payment', 'transaction'] },
    { kind: 'payment_link.payment_refunded', keys: ['payment_link', 'link_payment', 'transaction'] },
    { kind: 'payment_link.payment_cancelled', keys: ['payment_link', 'link_payment', 'transaction'] },
    { kind: 'subscription.active', keys: ['subscription', 'transaction'] },
    { kind: 'subscription.payment_refunded', keys: ['subscription', 'transaction'] },
    { kind: 'subscription.payment_cancelled', keys: ['subscription', 'transaction'] },
    { kind: 'subscription.past_due', keys: ['subscription'] },
    { kind: 'subscription.cancelled', keys: ['subscription'] },
    { kind: 'subscription.ended', keys: ['subscription'] },
    { kind: 'subscription.completed', keys: ['subscription'] },
  ];

  it.each(cases)('$kind carries $keys', async ({ kind, keys }) => {
    const transactionToken = crypto.randomUUID();
    const linkPaymentToken = crypto.randomUUID();
    // Every token is offered; the body must hold only the ones the contract names for this event.
    const { recordToken, at } = await emitEvent(t, m.workspaceId, kind, { transactionToken, linkPaymentToken });
    const [req] = await deliveredFor(recordToken);
    expectSignedFor(req!);
    const body = JSON.parse(req!.body);
    expect(Object.keys(body)).toEqual(['id', 'event', 'created_at', ...keys]);
    const tokens: Record<string, string> = { [kind.split('.')[0]!]: recordToken, transaction: transactionToken, link_payment: linkPaymentToken };
    for (const key of keys) expect(body[key]).toEqual({ token: tokens[key] });
    expect(body.event).toBe(kind);
    expect(new Date(body.created_at).getTime()).toBe(at.getTime());
  });
});

describe('the signed path', () => {
  it('is "/" for an address without a path, and the query is never signed', async () => {
    const bare = await gw.startReceiver();
    const other = await gw.seed();
    const ws = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: other.workspaceId } });
    await addWebhookAddress(t.gateway.services, ws, { url: `${bare.url}?only=query`, events: ['transaction.expired'] });
    const { recordToken } = await emitEvent(t, other.workspaceId, 'transaction.expired');
    t.clock.advance(30_000);
    const [req] = await bare.waitFor(1);
    expect(req!.path).toBe('/?only=query');
    expect(merchantVerifies(other.apiSecret, `${bare.url}?only=query`, req!, Math.floor(t.clock.now().getTime() / 1000))).toBe(true);
    expect(JSON.parse(req!.body)).toMatchObject({ event: 'transaction.expired', transaction: { token: recordToken } });
    // Signed with this workspace's secret, not another's.
    expect(merchantVerifies(m.apiSecret, `${bare.url}?only=query`, req!, Math.floor(t.clock.now().getTime() / 1000))).toBe(false);
    await deliveryRounds(t);
  });
});
