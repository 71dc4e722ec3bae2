// Timeout (contract: 15 seconds): a receiver that answers too late is a failed attempt. One test uses
// the real 15 s default with a receiver that answers after 16 s; one uses WEBHOOK_TIMEOUT_MS=500.
import { describe, expect, it } from 'vitest';
import { seedWorkspace, type TestGateway } from '../helpers/gateway.ts';
import type { Receiver } from '../helpers/receiver.ts';
import { useResources } from '../helpers/fixture.ts';
import { paymentBody } from '../helpers/payments.ts';
import { attemptsRecorded, deliveryRounds, notificationsOf } from '../helpers/webhooks.ts';
import { addWebhookAddress } from '../../src/domain/webhooks/addresses.ts';

// A gateway per test: each runs with its own WEBHOOK_TIMEOUT_MS.
const resources = useResources();

async function slowSetup(env: Record<string, string>, delayMs: number) {
  const t = await resources.startGateway({ env });
  const receiver = await resources.startReceiver();
  receiver.respondWith(200, delayMs);
  const m = await seedWorkspace(t);
  const ws = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
  await addWebhookAddress(t.gateway.services, ws, { url: `${receiver.url}/slow`, events: ['transaction.successful'] });
  const pay = await m.call('regular-payment', paymentBody(m));
  expect(pay.body.result.successful).toBe(true);
  const [n] = await notificationsOf(t, { recordToken: pay.body.transaction.token });
  return { t, receiver, n: n! };
}

async function expectTimedOut(t: TestGateway, receiver: Receiver, id: string, limitMs: number) {
  t.clock.advance(30_000);
  await receiver.waitFor(1);
  const after = await attemptsRecorded(t, id, 1);
  const attempt = after.attempts[0]!;
  expect(attempt.httpStatus).toBeNull();
  expect(attempt.error).toBe(`timeout after ${limitMs} ms`);
  expect(attempt.durationMs).toBeGreaterThanOrEqual(limitMs - 5);
  expect(attempt.durationMs).toBeLessThan(limitMs + 900);
  expect(after.status).toBe('pending');
  expect(after.attemptCount).toBe(1);
  expect(after.nextAttemptAt!.getTime()).toBe(attempt.startedAt.getTime() + 60_000);
}

describe('webhook timeout', () => {
  it('WEBHOOK_TIMEOUT_MS=500: an answer after 1.5 s is a failed attempt, retried 60 s later', async () => {
    const { t, receiver, n } = await slowSetup({ WEBHOOK_TIMEOUT_MS: '500' }, 1_500);
    await expectTimedOut(t, receiver, n.id, 500);
    // The retry is a new request; this time the receiver is quick and it is delivered.
    receiver.respondWith(200, 0);
    t.clock.advance(60_000);
    await receiver.waitFor(2);
    const done = await attemptsRecorded(t, n.id, 2);
    expect(done.status).toBe('delivered');
    expect(done.attempts.map((a) => a.httpStatus)).toEqual([null, 200]);
    await deliveryRounds(t, 2);
    expect(receiver.requests).toHaveLength(2);
  });

  it('default 15 s: an answer after 16 s is a failed attempt', { timeout: 90_000 }, async () => {
    const { t, receiver, n } = await slowSetup({}, 16_000);
    expect(t.gateway.config.WEBHOOK_TIMEOUT_MS).toBe(15_000);
    await expectTimedOut(t, receiver, n.id, 15_000);
  });
});
