// A real database crash: PostgreSQL killed (SIGKILL of every server process) while the bank is
// still answering a charge (the simulator's slow card), so the gateway cannot record the answer
// when it comes. Its owner starts PostgreSQL again by itself, and the request, which may not give
// up once the bank has answered, records the charge then: the client gets its 200 and the payment
// is successful, once. The recover-interrupted sweep, run afterwards, finds nothing left to do.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.ts';
import { serverProcesses, waitUntil } from '../helpers/gateway-process.ts';
import { seedWorkspace, startTestGateway, type TestGateway } from '../helpers/gateway.ts';
import { freePort } from '../helpers/ports.ts';
import { paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { INTERRUPTED_AFTER_MS, recoverInterruptedPayments } from '../../src/domain/payments/interrupted.ts';

const SLOW_CARD = '4000000000000259';
const dir = mkdtempSync(path.join(tmpdir(), 'gateway-db-crash-'));
let server: EmbeddedDatabase | undefined;
let t: TestGateway | undefined;

afterAll(async () => {
  await t?.stop();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

it('a payment whose database died during the bank call is recorded once PostgreSQL is back, and the sweep has nothing left', async () => {
  const port = await freePort();
  server = await startEmbeddedPostgres({ dir, port });
  t = await startTestGateway({ databaseUrl: server.url });
  const m = await seedWorkspace(t);
  const db = t.gateway.services.db;

  // Given a regular payment whose bank call is in flight
  const answer = m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'DBCRASH-1' }, card: { number: SLOW_CARD } })).then(
    (res) => ({ status: res.status, successful: res.body?.result?.successful }),
    () => 'no answer' as const,
  );
  await waitUntil(async () => (await db.payment.count({ where: { channelReference: 'DBCRASH-1' } })) === 1, 5_000, 'the payment row written');
  const { id } = await db.payment.findFirstOrThrow({ where: { channelReference: 'DBCRASH-1' } });

  // When PostgreSQL dies before the bank answers
  const killed = serverProcesses(path.join(dir, 'data'));
  expect(killed.length).toBeGreaterThan(0);
  for (const p of killed) process.kill(p.pid, 'SIGKILL');

  // Then the request waits for the database its owner starts again, and records the charge
  expect(await answer).toEqual({ status: 200, successful: true });
  expect(serverProcesses(path.join(dir, 'data')).map((p) => p.pid)).not.toContain(killed[0]!.pid);
  expect((await db.payment.findUniqueOrThrow({ where: { id } })).status).toBe('successful');
  expect(await eventsOf(t, id)).toEqual(['transaction.successful']);

  // and the sweep, later, neither settles it again nor sends a second event
  t.clock.advance(INTERRUPTED_AFTER_MS + 1000);
  await recoverInterruptedPayments(t.gateway.services);
  expect((await db.payment.findUniqueOrThrow({ where: { id } })).status).toBe('successful');
  expect(await eventsOf(t, id)).toEqual(['transaction.successful']);
}, 120_000);
