import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { completeThreeDs, paymentBody } from '../helpers/payments.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';

let a: TestGateway;
let b: TestGateway;
let m: Merchant;
beforeAll(async () => {
  a = await startTestGateway();
  b = await startTestGateway({ databaseUrl: a.databaseUrl, clock: a.clock });
  m = await seedWorkspace(a);
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

describe('live payment status', () => {
  it('a graphql-ws subscriber on process B sees a payment completed through process A', async () => {
    const token = await createAccessToken(a.gateway.services.db, m.team, 'dash');
    const client = createClient({ url: b.gateway.baseUrl.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${token}` }, lazy: false });
    const start = await m.call('secure-payment', paymentBody(m));
    const paymentToken = start.body.transaction.token as string;
    const received: unknown[] = [];
    const done = new Promise<void>((resolve, reject) => {
      client.subscribe(
        { query: `subscription($t: String!) { paymentUpdated(token: $t) { token status paymentStatus } }`, variables: { t: paymentToken } },
        { next: (v) => { received.push(v); resolve(); }, error: reject, complete: () => {} },
      );
    });
    await new Promise((r) => setTimeout(r, 300));
    await completeThreeDs(start.body.result.redirect_url, 'approve');
    await done;
    expect(received[0]).toEqual({ data: { paymentUpdated: { token: paymentToken, status: 'successful', paymentStatus: 'paid' } } });
    await client.dispose();
  });
});
