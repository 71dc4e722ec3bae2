// A real crash: a gateway process (npm start, embedded PostgreSQL) killed with SIGKILL while the
// bank is still answering a charge (the simulator's slow card). The payment row stays `started`
// and the client gets no answer. A new gateway on the same database then finishes it by itself:
// its recover-interrupted job runs at start, asks the bank (whose books died with the killed
// process, so it never got the call) and fails the payment once, with its event.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call } from '../helpers/client.ts';
import { pgDataOf, startGatewayProcess, stopEverything, waitForOutput, waitUntil, type GatewayPlace, type GatewayProcess } from '../helpers/gateway-process.ts';
import { startTestGateway, TEST_MASTER_KEY, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { freePort } from '../helpers/ports.ts';
import { paymentBody } from '../helpers/payments.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { INTERRUPTED_AFTER_MS } from '../../src/domain/payments/interrupted.ts';

const SLOW_CARD = '4000000000000259';

let place: GatewayPlace;
const started: GatewayProcess[] = [];
let next: TestGateway | undefined;

beforeAll(async () => {
  // Both gateways use one master key: the database refuses a second key for its secrets.
  place = {
    dataDir: mkdtempSync(path.join(tmpdir(), 'gateway-crash-')),
    port: await freePort(),
    pgPort: await freePort(),
    env: { GATEWAY_MASTER_KEY: TEST_MASTER_KEY },
  };
});

afterAll(async () => {
  await next?.stop();
  await stopEverything(started, [pgDataOf(place.dataDir)]);
  rmSync(place.dataDir, { recursive: true, force: true });
}, 60_000);

interface PaymentRow {
  id: string;
  status: string;
  errorCode: string | null;
}

it('a payment whose gateway was killed during the bank call is finished by the next gateway on the same database, once', async () => {
  const first = startGatewayProcess(place, started);
  await waitForOutput(first, '"gateway listening"', 60_000);
  const demo = JSON.parse(readFileSync(path.join(place.dataDir, 'demo-credentials.json'), 'utf8')) as { base_url: string; team: string; api_key: string; api_secret: string; channel_token: string };
  const settings = JSON.parse(readFileSync(path.join(place.dataDir, 'pg', 'settings.json'), 'utf8')) as { password: string };
  const databaseUrl = `postgresql://postgres:${settings.password}@127.0.0.1:${place.pgPort}/gateway`;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const paymentOf = async () => (await db.query<PaymentRow>(`SELECT id, status, "errorCode" FROM "Payment" WHERE "channelReference" = 'CRASH-1'`)).rows[0];

    // Given a regular payment whose bank call is in flight
    const body = paymentBody({ channelToken: demo.channel_token } as Merchant, { transaction: { channel_reference: 'CRASH-1' }, card: { number: SLOW_CARD } });
    const answer = call(demo.base_url, { team: demo.team, apiKey: demo.api_key, apiSecret: demo.api_secret }, 'regular-payment', body).then(
      (res) => res.status,
      () => 'no answer' as const,
    );
    await waitUntil(async () => (await paymentOf()) !== undefined, 10_000, 'the payment row written');

    // When the gateway is killed before the bank answers
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await answer).toBe('no answer');
    const left = (await paymentOf())!;
    expect(left.status).toBe('started');

    // Then a new gateway on the same database, once the payment is old enough, finishes it by itself
    const later = new ManualClock(new Date(Date.now() + INTERRUPTED_AFTER_MS + 60_000));
    next = await startTestGateway({ databaseUrl, clock: later });
    await waitUntil(async () => (await paymentOf())!.status !== 'started', 20_000, 'the payment settled by the sweep');
    expect(await paymentOf()).toEqual({ id: left.id, status: 'failed', errorCode: 'payment_not_received' });
    const events = await db.query<{ kind: string }>(`SELECT kind FROM "OutboxEvent" WHERE "recordToken" = $1`, [left.id]);
    expect(events.rows.map((e) => e.kind)).toEqual(['transaction.failed']);
  } finally {
    await db.end();
  }
}, 120_000);
