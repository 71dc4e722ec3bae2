// subscription-payment's `webhook_url`: the subscription's own events reach it, signed
// like every webhook (checked here with the merchant's verifier, `verifyWebhook`), besides the
// workspace's addresses that selected them; another subscription's events never do, and an
// address with the same URL gets one notification, not two.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import type { Merchant } from '../helpers/gateway.ts';
import type { ReceivedRequest, Receiver } from '../helpers/receiver.ts';
import { attemptsRecorded, notificationsOf } from '../helpers/webhooks.ts';
import { addWebhookAddress } from '../../src/domain/webhooks/addresses.ts';
import { verifyWebhook } from '../../src/domain/signatures.ts';
import { openSubscription, payPeriod, recurringProduct, saveProducts } from './support.ts';

const gw = useGateway();
const { t } = gw;

async function merchant(): Promise<Merchant> {
  const m = await gw.seed();
  await saveProducts(m, [recurringProduct(m, 'PLAN-M')]);
  return m;
}

/** Moves the clock past the first attempt and waits until every notification of `recordToken` was tried. */
async function deliver(recordToken: string): Promise<void> {
  const ns = await notificationsOf(t, { recordToken });
  t.clock.advance(30_000);
  for (const n of ns) await attemptsRecorded(t, n.id, 1);
}

function signedBy(m: Merchant, path: string, req: ReceivedRequest): boolean {
  return verifyWebhook({
    secret: m.apiSecret,
    timestamp: req.headers['x-timestamp'] as string | undefined,
    signature: req.headers['x-signature'] as string | undefined,
    path,
    rawBody: req.body,
    now: t.clock.now(),
  });
}

const bodies = (r: Receiver) => r.requests.map((req) => JSON.parse(req.body) as Record<string, unknown>);

describe('webhook_url of a subscription', () => {
  it('receives subscription.active and the cancellation events of its own subscription, signed; the workspace address gets them too', async () => {
    const m = await merchant();
    const own = await gw.startReceiver();
    const workspaceHook = await gw.startReceiver();
    const ws = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    await addWebhookAddress(t.gateway.services, ws, { url: `${workspaceHook.url}/all`, allEvents: true });

    const { token } = await openSubscription(m, { subscription: { webhook_url: `${own.url}/hooks/sub?s=1` }, items: [{ channel_reference: 'PLAN-M' }] });
    const other = await openSubscription(m, { subscription: { channel_reference: 'SUB-2002' }, items: [{ channel_reference: 'PLAN-M' }] });
    const { started } = await payPeriod(t, token);
    await payPeriod(t, other.token);
    expect(started.kind).toBe('redirect');
    await deliver(token);
    await deliver(other.token);

    expect(own.requests).toHaveLength(1);
    const [req] = own.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/hooks/sub?s=1' });
    expect(signedBy(m, '/hooks/sub', req!)).toBe(true);
    expect(signedBy(m, '/hooks/other', req!)).toBe(false);
    const body = JSON.parse(req!.body);
    expect(Object.keys(body)).toEqual(['id', 'event', 'created_at', 'subscription', 'transaction']);
    expect(body).toMatchObject({ event: 'subscription.active', subscription: { token }, transaction: { token: started.paymentId } });
    // The workspace's address got both subscriptions' events, with ids of its own.
    expect(bodies(workspaceHook).map((b) => [b.event, (b.subscription as { token: string }).token]).sort()).toEqual(
      [['subscription.active', token], ['subscription.active', other.token]].sort(),
    );
    expect(bodies(workspaceHook).find((b) => (b.subscription as { token: string }).token === token)!.id).not.toBe(body.id);

    expect((await m.call('cancel-subscription', { subscription: { token } })).status).toBe(200);
    await deliver(token);
    expect(bodies(own).map((b) => b.event)).toEqual(['subscription.active', 'subscription.cancelled']);
    expect(own.requests.every((r) => signedBy(m, '/hooks/sub', r))).toBe(true);
  });

  it('an address with the same URL as webhook_url gets one notification per event, not two', async () => {
    const m = await merchant();
    const hook = await gw.startReceiver();
    const ws = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    await addWebhookAddress(t.gateway.services, ws, { url: `${hook.url}/same`, allEvents: true });
    const { token } = await openSubscription(m, { subscription: { webhook_url: `${hook.url}/same` }, items: [{ channel_reference: 'PLAN-M' }] });
    await payPeriod(t, token);
    expect(await notificationsOf(t, { recordToken: token })).toHaveLength(1);
    await deliver(token);
    expect(bodies(hook).map((b) => b.event)).toEqual(['subscription.active']);
  });
});
