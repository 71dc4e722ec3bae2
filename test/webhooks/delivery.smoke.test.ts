import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { paymentBody } from '../helpers/payments.ts';
import { addWebhookAddress } from '../../src/domain/webhooks/addresses.ts';
import { verifyWebhook } from '../../src/domain/signatures.ts';

const { t, merchant: m, receiver } = useGateway({ merchant: true, receiver: true });

describe('webhook delivery smoke', () => {
  it('delivers a signed transaction.successful 30 s after the payment', async () => {
    const ws = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    await addWebhookAddress(t.gateway.services, ws, { url: `${receiver.url}/hooks?x=1`, events: ['transaction.successful'] });
    const pay = await m.call('regular-payment', paymentBody(m));
    expect(pay.body.result.successful).toBe(true);
    await new Promise((r) => setTimeout(r, 600));
    expect(receiver.requests).toHaveLength(0);
    t.clock.advance(30_000);
    const [req] = await receiver.waitFor(1);
    const body = JSON.parse(req!.body);
    expect(body.event).toBe('transaction.successful');
    expect(body.transaction).toEqual({ token: pay.body.transaction.token });
    expect(
      verifyWebhook({ secret: m.apiSecret, timestamp: String(req!.headers['x-timestamp']), signature: String(req!.headers['x-signature']), path: '/hooks', rawBody: req!.body, now: t.clock.now() }),
    ).toBe(true);
  });
});
