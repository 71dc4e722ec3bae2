import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { paymentBody } from '../helpers/payments.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';

let t: TestGateway;
let m: Merchant;
let other: Merchant;
beforeAll(async () => {
  t = await startTestGateway();
  m = await seedWorkspace(t);
  other = await seedWorkspace(t);
});
afterAll(() => t?.stop());

async function openStream(token: string, query: string, variables: Record<string, unknown> = {}) {
  const abort = new AbortController();
  const res = await fetch(`${t.gateway.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
    signal: abort.signal,
  });
  const reader = res.body!.getReader();
  const events: unknown[] = [];
  let buffer = '';
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += new TextDecoder().decode(value);
      for (const block of buffer.split('\n\n').slice(0, -1)) {
        const data = block.split('\n').find((l) => l.startsWith('data:'));
        if (data && data.length > 6) events.push(JSON.parse(data.slice(5)));
      }
      buffer = buffer.slice(buffer.lastIndexOf('\n\n') + 2);
    }
  })();
  return { res, events, close: () => { abort.abort(); return pump; } };
}

describe('subscriptions over Server-Sent Events', () => {
  it('the events subscription streams the workspace’s events and none of another workspace', async () => {
    const token = await createAccessToken(t.gateway.services.db, m.team, 'dash');
    const stream = await openStream(token, 'subscription { events(kinds: ["transaction.successful"]) { kind recordToken } }');
    expect(stream.res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    await other.call('regular-payment', paymentBody(other));
    const mine = await m.call('regular-payment', paymentBody(m));
    const deadline = Date.now() + 5000;
    while (stream.events.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    await stream.close();
    expect(stream.events).toEqual([{ data: { events: { kind: 'transaction.successful', recordToken: mine.body.transaction.token } } }]);
  });
});
