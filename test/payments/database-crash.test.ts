// A real database crash: PostgreSQL killed (SIGKILL of every server process) while the bank is
// still answering a charge (the simulator's slow card), so the gateway cannot record the answer.
// The gateway survives, and with it the simulated bank's books; once PostgreSQL is back, the
// recover-interrupted sweep asks the bank and settles the payment as approved, once.
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

it('a payment whose database died during the bank call is settled by the sweep once the database is back', async () => {
  const port = await freePort();
  server = await startEmbeddedPostgres({ dir, port });
  t = await startTestGateway({ databaseUrl: server.url });
  const m = await seedWorkspace(t);
  const db = t.gateway.services.db;

  // Given a regular payment whose bank call is in flight
  const answer = m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'DBCRASH-1' }, card: { number: SLOW_CARD } })).then(
    (res) => res.status,
    () => 'no answer' as const,
  );
  await waitUntil(async () => (await db.payment.count({ where: { channelReference: 'DBCRASH-1' } })) === 1, 5_000, 'the payment row written');
  const { id } = await db.payment.findFirstOrThrow({ where: { channelReference: 'DBCRASH-1' } });

  // When PostgreSQL dies before the bank answers
  for (const p of serverProcesses(path.join(dir, 'data'))) process.kill(p.pid, 'SIGKILL');
  // the request cannot record the bank's answer: the client gets a 500
  expect(await answer).toBe(500);

  // Then, the database back, the payment is still started, and the sweep settles it
  server = await startEmbeddedPostgres({ dir, port });
  await waitUntil(async () => (await db.payment.count().then(() => true, () => false)), 20_000, 'the gateway reconnected');
  expect((await db.payment.findUniqueOrThrow({ where: { id } })).status).toBe('started');
  t.clock.advance(INTERRUPTED_AFTER_MS + 1000);
  await recoverInterruptedPayments(t.gateway.services);
  expect((await db.payment.findUniqueOrThrow({ where: { id } })).status).toBe('successful');
  expect(await eventsOf(t, id)).toEqual(['transaction.successful']);
}, 120_000);
