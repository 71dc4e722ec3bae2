// Prisma client CPU probe (not a test): `npx tsx bench/prisma-probe.ts`.
//
// How much of this process's CPU one database call costs through the Prisma client, measured with
// process.cpuUsage() (PostgreSQL runs in its own processes and is not counted). It starts a
// throw-away embedded PostgreSQL, migrates it, seeds one workspace with a payment, and runs each
// operation PROBE_CALLS times one after another (after PROBE_WARMUP calls that are not counted),
// PROBE_ROUNDS times; it prints CPU ms and wall ms per call, the median round and every round.
// A bare `pg` query of the same row is the floor: what the call costs without an ORM.
// It only uses what the gateway's own code calls, so the same file runs on any checkout of the
// project: that is how docs/performance.md compares Prisma 6 with Prisma 7.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import getPort from 'get-port';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createDb, type Db } from '../src/db/client.ts';
import { detachEmbeddedSignalHooks, startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { loadPaymentView } from '../src/domain/payments/view.ts';
import { createWorkspace } from '../src/domain/workspaces.ts';
import { recordEvent } from '../src/domain/events.ts';

const CALLS = positiveInt(process.env.PROBE_CALLS, 500, 'PROBE_CALLS');
const WARMUP = positiveInt(process.env.PROBE_WARMUP, 200, 'PROBE_WARMUP');
const ROUNDS = positiveInt(process.env.PROBE_ROUNDS, 3, 'PROBE_ROUNDS');

function positiveInt(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

const freePort = (): Promise<number> => getPort({ host: '127.0.0.1' });

function prismaVersion(): string {
  const file = createRequire(import.meta.url).resolve('@prisma/client/package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

interface Seed {
  workspaceId: string;
  channelId: string;
  accountId: string;
  paymentId: string;
}

/** A payment with a customer, an account and two refunds (what retrieve-payment reads of it: its customer). */
async function seed(db: Db): Promise<Seed> {
  const { workspace } = await createWorkspace(db, randomBytes(32), { slug: 'probe' });
  const channel = await db.channel.create({ data: { workspaceId: workspace.id, name: 'probe' } });
  const account = await db.paymentAccount.create({ data: { workspaceId: workspace.id, name: 'sim', provider: 'simulator', currencies: ['TRY'] } });
  const customer = await db.customer.create({ data: { workspaceId: workspace.id, channelId: channel.id, channelReference: 'c-1', email: 'c1@example.com' } });
  const payment = await db.payment.create({
    data: {
      workspaceId: workspace.id,
      channelId: channel.id,
      customerId: customer.id,
      paymentAccountId: account.id,
      source: 'api',
      securityType: 'non_secure',
      status: 'successful',
      paymentStatus: 'partially_refunded',
      amount: 10_000n,
      baseAmount: 10_000n,
      currency: 'TRY',
      isTest: true,
      cardFirstDigits: '41111111',
      cardLastFourDigits: '1111',
      completedAt: new Date(),
      refunds: { create: [{ type: 'refund', status: 'succeeded', amount: 1_000n }, { type: 'refund', status: 'succeeded', amount: 500n }] },
    },
  });
  // One webhook address for every event, so recording an event also writes its notification.
  await db.webhookAddress.create({ data: { workspaceId: workspace.id, url: 'http://127.0.0.1:9/hooks', allEvents: true } });
  return { workspaceId: workspace.id, channelId: channel.id, accountId: account.id, paymentId: payment.id };
}

/** The write a payment makes: customer upsert, payment insert, outbox insert, in one transaction. */
async function createPayment(db: Db, s: Seed): Promise<void> {
  await db.$transaction(async (tx) => {
    const reference = `c-${randomUUID()}`;
    const customer = await tx.customer.upsert({
      where: { channelId_channelReference: { channelId: s.channelId, channelReference: reference } },
      create: { workspaceId: s.workspaceId, channelId: s.channelId, channelReference: reference, email: 'buyer@example.com' },
      update: { email: 'buyer@example.com' },
    });
    const payment = await tx.payment.create({
      data: {
        workspaceId: s.workspaceId,
        channelId: s.channelId,
        customerId: customer.id,
        paymentAccountId: s.accountId,
        source: 'api',
        securityType: 'non_secure',
        status: 'successful',
        paymentStatus: 'paid',
        amount: 10_000n,
        baseAmount: 10_000n,
        currency: 'TRY',
        isTest: true,
        cardFirstDigits: '41111111',
        cardLastFourDigits: '1111',
        completedAt: new Date(),
      },
    });
    await tx.outboxEvent.create({
      data: { workspaceId: s.workspaceId, kind: 'payment.succeeded', recordType: 'payment', recordToken: payment.id, transactionToken: payment.id },
    });
  });
}

interface Round {
  cpuMs: number;
  wallMs: number;
}

async function measure(op: () => Promise<unknown>): Promise<Round> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await op();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000 / CALLS, wallMs: wall / CALLS };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => x.toFixed(3);

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-prisma-probe-'));
  const server = await startEmbeddedPostgres({ dir, port: await freePort(), persistent: false, database: 'postgres' });
  detachEmbeddedSignalHooks();
  let db: Db | undefined;
  const bare = new pg.Pool({ connectionString: server.url, max: 10 });
  try {
    await migrate(server.url);
    db = createDb(server.url);
    const s = await seed(db);
    const client = db;
    const ops: [string, () => Promise<unknown>][] = [
      // The floor: the same row through the pg driver alone, no ORM.
      ['bare pg SELECT of the workspace row', () => bare.query('SELECT * FROM "Workspace" WHERE id = $1', [s.workspaceId])],
      ['workspace.findUnique (1 statement)', () => client.workspace.findUnique({ where: { id: s.workspaceId } })],
      ['loadPaymentView (payment, customer, stored card)', () => loadPaymentView(client, s.paymentId)],
      ['payment transaction (upsert + 2 inserts)', () => createPayment(client, s)],
      ['recordEvent with one webhook address (tx)', () => client.$transaction((tx) => recordEvent(tx, { workspaceId: s.workspaceId, kind: 'transaction.successful', recordToken: randomUUID() }, new Date()))],
    ];
    process.stdout.write(`Prisma ${prismaVersion()}, node ${process.version}, ${CALLS} calls x ${ROUNDS} rounds after ${WARMUP} warm-up calls\n`);
    process.stdout.write(`${'operation'.padEnd(44)} ${'CPU ms/call'.padStart(11)} ${'wall ms/call'.padStart(12)}   rounds (CPU ms/call)\n`);
    for (const [name, op] of ops) {
      for (let i = 0; i < WARMUP; i++) await op();
      const rounds: Round[] = [];
      for (let r = 0; r < ROUNDS; r++) rounds.push(await measure(op));
      const cpu = median(rounds.map((r) => r.cpuMs));
      const wall = median(rounds.map((r) => r.wallMs));
      process.stdout.write(`${name.padEnd(44)} ${ms(cpu).padStart(11)} ${ms(wall).padStart(12)}   ${rounds.map((r) => ms(r.cpuMs)).join(' ')}\n`);
    }
  } finally {
    await db?.$disconnect();
    await bare.end();
    await server.stop();
    detachEmbeddedSignalHooks(['exit']);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    process.stderr.write(`prisma-probe failed: ${err.stack ?? err.message}\n`);
    process.exit(1);
  },
);
