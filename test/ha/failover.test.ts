// The reference high-availability deployment (deploy/ha, scripts/ha/cluster.ts) under load: etcd,
// a Patroni primary and synchronous standby of Debian's PostgreSQL 15, HAProxy routing to the
// primary, and two gateway processes on one DATABASE_URL through HAProxy. Clients pay and refund
// through both gateways while (1) the primary's PostgreSQL is killed with SIGKILL, (2) a planned
// switchover is made with patronictl, (3) the primary's whole node (Patroni and PostgreSQL) is
// killed. After each: no payment answered 200 is missing or different, no refund goes beyond its
// payment, no call was answered anything but 200/503 (503 always with Retry-After, never 500, never
// a connection closed without an answer), and a key revoked after it is refused by both gateways
// at once (their change notifications came back with the new primary), a dashboard's graphql-ws
// subscription on each gateway (one client each, never created again) gets the events of payments
// made after it, and the recurring webhook job runs again within 30 s. The time from the event to
// the first 200 is printed (docs/performance.md, "Failover"). After the three: every webhook event
// reached the merchant's receiver at least once, and due one-time jobs each run once, on one gateway. Then
// the two gateways on one database share the request windows and the idempotency keys.
//
// Needs Debian's postgresql-15, patroni, etcd-server and haproxy (.ci/run installs them); without
// them it says so in one line and skips.
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/client.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { ALL_FEATURES, createChannel, createPaymentAccount, createWorkspace, rotateCredentials } from '../../src/domain/workspaces.ts';
import {
  clusterMembers,
  killNode,
  killPostgres,
  leaderOf,
  missingPackages,
  startDatabaseCluster,
  startGateway,
  startPatroni,
  stopAll,
  switchover,
  waitFor,
  waitForGateway,
  type HaState,
  type NodeName,
} from '../../scripts/ha/cluster.ts';
import { call } from '../helpers/client.ts';
import { paymentBody } from '../helpers/payments.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { Load, type Answer, type LoadMerchant } from './load.ts';
import { listenToJobStarts, LiveWatcher } from './watchers.ts';

const why = missingPackages();
if (why) console.log(`test/ha/failover.test.ts skipped: ${why}`);

/** Clients paying and refunding at once, through both gateways. */
const CLIENTS = Number(process.env.HA_CLIENTS ?? 32);
/** Ports of deploy/ha moved by this much (26xx), so that a `npm run ha -- up` beside it is left alone. */
const PORT_SHIFT = 100;
const BIN = { card: { bin: '41111111' }, transaction: { amount: '100.00', currency: 'TRY' } };

let dir: string;
let state: HaState;
let gateways: string[];
let masterKey: Buffer;
let merchant: LoadMerchant & { workspaceId: string };
let receiver: Receiver;
let watchers: LiveWatcher[] = [];
let failed = false;
const figures: string[] = [];

/** A short-lived owner connection through HAProxy (the long-lived pools are the gateways'). */
async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const db = createDb(state.ownerUrl, { max: 2 });
  try {
    return await fn(db);
  } finally {
    await db.$disconnect();
  }
}

/**
 * What the primary says of its standbys and its busy sessions, for the message of a wait that
 * timed out (commits waiting on a synchronous standby show as wait event SyncRep).
 */
async function primaryState(): Promise<string> {
  const read = withDb(async (db) =>
    JSON.stringify({
      standbys: await db.$queryRawUnsafe(`SELECT application_name, state, sync_state, sent_lsn::text, flush_lsn::text, replay_lsn::text FROM pg_stat_replication`),
      waiting: await db.$queryRawUnsafe(`SELECT wait_event_type, wait_event, count(*)::int AS sessions FROM pg_stat_activity WHERE state = 'active' GROUP BY 1, 2`),
    }),
  );
  const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('not readable within 10 s'), 10_000).unref());
  return Promise.race([read.catch((e: Error) => `not readable: ${e.message}`), timeout]);
}

async function seedMerchant(slug: string): Promise<LoadMerchant & { workspaceId: string }> {
  return withDb(async (db) => {
    const { workspace, credentials } = await createWorkspace(db, masterKey, { slug, plan: ALL_FEATURES });
    // Every client pays from one address: the card-testing guard would stop them (as it should).
    await db.workspace.update({ where: { id: workspace.id }, data: { riskGuard: false } });
    const channel = await createChannel(db, slug, 'Web');
    await createPaymentAccount(db, slug, { name: 'Simulator', isDefault: true });
    return { team: slug, apiKey: credentials.apiKey, apiSecret: credentials.apiSecret, channelToken: channel.id, workspaceId: workspace.id };
  });
}

const healthy = async () => {
  const members = await clusterMembers(state).catch(() => []);
  return members.some((m) => m.role === 'leader' && m.state === 'running') && members.some((m) => m.role === 'sync_standby' && ['streaming', 'running'].includes(m.state));
};

beforeAll(async () => {
  if (why) return;
  dir = mkdtempSync(path.join(tmpdir(), 'gateway-ha-'));
  // Patroni runs as the postgres user under it.
  chmodSync(dir, 0o755);
  // Until the start is through, a failure keeps the logs.
  failed = true;
  state = await startDatabaseCluster({ dir, portShift: PORT_SHIFT });
  // A revoked key must be refused at once although a process may reuse an admission for a minute:
  // only the change notifications (LISTEN through HAProxy) can tell it.
  const env = { ADMISSION_MEMORY_MS: '60000', RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_LINKS_PER_MINUTE: '0', LOG_LEVEL: 'warn', AGENDA_PROCESS_EVERY_MS: '500', WEBHOOK_POLL_INTERVAL_MS: '500' };
  gateways = [startGateway(state, 0, { gatewayEnv: env }), startGateway(state, 1, { gatewayEnv: env })];
  await Promise.all([0, 1].map((index) => waitForGateway(state, index)));
  masterKey = Buffer.from(readFileSync(path.join(dir, 'master-key'), 'utf8').trim(), 'hex');
  merchant = await seedMerchant('ha');
  receiver = await startReceiver();
  await withDb((db) => db.webhookAddress.create({ data: { workspaceId: merchant.workspaceId, url: `${receiver.url}/hooks`, allEvents: true } }));
  const token = await withDb((db) => createAccessToken(db, 'ha', 'failover-dashboard'));
  watchers = gateways.map((url) => new LiveWatcher(url, token));
  failed = false;
}, 300_000);

afterEach((ctx) => {
  if (ctx.task.result?.state === 'fail') failed = true;
});

afterAll(async () => {
  if (why || !dir) return;
  await Promise.all(watchers.map((w) => w.stop()));
  await receiver?.close();
  await stopAll(dir);
  for (const line of figures) console.log(line);
  if (failed) console.log(`failover test: logs kept in ${dir}/logs`);
  else rmSync(dir, { recursive: true, force: true });
}, 120_000);

interface Outcome {
  load: Load;
  /** When the event was made. */
  at: number;
  recoveryMs: number;
  unavailable: number;
  unavailableForMs: number;
  /** Refund reservations left pending by a commit whose answer was lost (never asked of the bank). */
  inDoubt?: number;
  /** Payment rows left `started` (never charged) by an in-doubt first write. */
  uncharged?: number;
  /** Refund answers 409 or 422 that an in-doubt reservation explains. */
  explained?: number;
}

/**
 * Runs the load, does `event` once payments flow, and goes on until a call sent after it was
 * answered 200 and `recovered` holds; then stops the load and measures.
 */
async function underLoad(run: string, event: () => void | Promise<void>, afterFirstSuccess: () => void | Promise<void> = () => {}): Promise<Outcome> {
  const load = new Load(gateways, merchant, run);
  load.start(CLIENTS);
  try {
    await waitFor(() => load.paid.size >= CLIENTS, 60_000, 'payments flowing before the event');
    const at = Date.now();
    await event();
    await waitFor(() => load.answers.some((a) => a.status === 200 && a.sentAt > at), 120_000, 'a 200 after the event');
    await afterFirstSuccess();
    await waitFor(healthy, 120_000, 'a leader and a synchronous standby again');
    const paidBefore = load.paid.size;
    await waitFor(() => load.paid.size >= paidBefore + CLIENTS, 60_000, 'payments flowing again').catch(async (err: Error) => {
      throw new Error(`${err.message} (${load.paid.size - paidBefore} paid since); the primary: ${await primaryState()}`);
    });
    await load.stop();
    const after = load.answers.filter((a) => a.sentAt >= at || a.answeredAt >= at);
    const firstOk = Math.min(...after.filter((a) => a.status === 200 && a.sentAt > at).map((a) => a.answeredAt));
    const refused = after.filter((a) => a.status === 503);
    return {
      load,
      at,
      recoveryMs: firstOk - at,
      unavailable: refused.length,
      unavailableForMs: refused.length ? Math.max(...refused.map((a) => a.answeredAt)) - Math.min(...refused.map((a) => a.answeredAt)) : 0,
    };
  } finally {
    await load.stop();
  }
}

/** What every scenario must show, from the answers and the database afterwards. */
async function expectNothingLost(o: Outcome): Promise<void> {
  const { load } = o;
  expect(load.answers.filter((a) => a.status === 503 && a.retryAfter !== '2')).toEqual([]);
  const rows = await withDb((db) =>
    db.payment.findMany({ where: { id: { in: [...load.paid.keys()] } }, select: { id: true, amount: true, status: true, refundedAmount: true, refunds: { select: { amount: true, status: true, createdAt: true } } } }),
  );
  expect(rows.length).toBe(load.paid.size);
  let inDoubt = 0;
  for (const row of rows) {
    const paid = load.paid.get(row.id)!;
    const story = `refunds ${JSON.stringify(row.refunds.map((r) => ({ ...r, amount: String(r.amount) })))}; answers:\n${paid.refundAnswers.join('\n')}`;
    const sum = (status: string) => row.refunds.filter((r) => r.status === status).reduce((total, r) => total + r.amount, 0n);
    // The money: exactly the refunds answered 200, within the payment.
    expect({ amount: row.amount, status: row.status, refunded: sum('succeeded') }, story).toEqual({ amount: paid.amount, status: 'successful', refunded: paid.refunded });
    expect(row.refundedAmount, story).toBe(sum('succeeded') + sum('pending'));
    expect(row.refundedAmount, story).toBeLessThanOrEqual(row.amount);
    // A reservation whose COMMIT reached the database but whose answer the kill cut off: the call
    // was answered 503 (the bank was never asked), and the interrupted-refund sweep releases it.
    inDoubt += row.refunds.filter((r) => r.status === 'pending').length;
  }
  o.inDoubt = inDoubt;
  // Besides 200 and 503, only what an in-doubt commit explains: a key whose claim committed while
  // its answer was lost is held until its lease ends (409 "still being processed", sent again), and
  // the rest of a payment with an in-doubt reservation is not refundable (422) until it is released.
  const doubtful = new Set(rows.filter((r) => r.refunds.some((x) => x.status === 'pending')).map((r) => r.id));
  const explained = (a: Answer) => a.status === 409 || (a.op === 'refund' && a.status === 422 && a.token !== undefined && doubtful.has(a.token));
  const wrong = load.answers.filter((a) => a.status !== 200 && a.status !== 503 && !explained(a));
  expect(wrong, JSON.stringify(wrong.slice(0, 5))).toEqual([]);
  o.explained = load.answers.filter(explained).length;
  // No reference charged twice. A payment row whose first write's COMMIT was in doubt (answered
  // 503, then sent again with the same key) stays `started`, never charged, for the sweep to fail.
  const twice = await withDb((db) =>
    db.payment.groupBy({ by: ['channelReference'], where: { channelReference: { in: load.references }, status: 'successful' }, _count: { _all: true }, having: { channelReference: { _count: { gt: 1 } } } }),
  );
  expect(twice).toEqual([]);
  o.uncharged = await withDb((db) => db.payment.count({ where: { channelReference: { in: load.references }, status: 'started' } }));
  const beyond = await withDb((db) => db.$queryRawUnsafe<Array<{ n: bigint }>>('SELECT count(*) AS n FROM "Payment" WHERE "refundedAmount" > "amount"'));
  expect(beyond[0]!.n).toBe(0n);
}

/** The recurring webhook job (every 500 ms) finished a run within the last `seconds`; else its row, for the message. */
async function webhookJobRanWithin(seconds: number): Promise<string | null> {
  const rows = await withDb((db) =>
    db.$queryRawUnsafe<Array<{ recent: boolean }>>(`SELECT (last_finished_at > now() - make_interval(secs => $1)) AS recent, locked_at, last_run_at, last_finished_at, next_run_at FROM agenda.agenda_jobs WHERE name = 'deliver-webhooks'`, seconds),
  );
  return rows[0]?.recent ? null : JSON.stringify(rows);
}

/** The recurring webhook job runs again within 30 s (not after its 2-minute lock lifetime, nor never). */
async function expectWebhookJobRunning(): Promise<void> {
  let stuck: string | null = null;
  const ran = await waitFor(async () => (stuck = await webhookJobRanWithin(5)) === null, 30_000, 'a webhook job run').then(() => true, () => false);
  expect(ran, `the recurring webhook job has not run again: ${stuck}`).toBe(true);
}

/** A key revoked now is refused by both gateways at once, though each may reuse an admission for a minute. */
async function expectRevocationSeen(slug: string): Promise<void> {
  const m = await seedMerchant(slug);
  for (const url of gateways) expect((await call(url, m, 'retrieve-bin', BIN)).status).toBe(200);
  const fresh = await withDb((db) => rotateCredentials(db, masterKey, slug));
  await waitFor(async () => {
    const statuses = await Promise.all(gateways.map(async (url) => (await call(url, m, 'retrieve-bin', BIN)).status));
    return statuses.every((s) => s === 401);
  }, 3_000, 'the old key refused by both gateways');
  for (const url of gateways) expect((await call(url, { ...m, apiKey: fresh.apiKey, apiSecret: fresh.apiSecret }, 'retrieve-bin', BIN)).status).toBe(200);
}

/** Each gateway's subscriber gets the events of payments made after the event, on the client it had before. */
async function expectLiveUpdatesAfter(o: Outcome): Promise<string> {
  const later = new Set([...o.load.paid.values()].filter((p) => p.paidAt > o.at).map((p) => p.token));
  await waitFor(() => watchers.every((w) => w.sawAny(later)), 15_000, 'live events of payments made after the event on both gateways').catch(() => {});
  const state = watchers.map((w, i) => `gateway ${i + 1}: ${w.seen.length} events, ${w.connects} connects, ${w.resubscribed} resubscriptions`).join('; ');
  expect(watchers.map((w) => w.sawAny(later)), state).toEqual(watchers.map(() => true));
  return state;
}

function note(what: string, o: Outcome): void {
  const line =
    `failover figure: ${what}: first 200 after ${(o.recoveryMs / 1000).toFixed(1)} s; ${o.unavailable} calls answered 503 over ${(o.unavailableForMs / 1000).toFixed(1)} s; ` +
    `${o.load.paid.size} payments answered 200 and ${o.load.answers.length} answers in all (${CLIENTS} clients), none lost; ` +
    `${o.inDoubt ?? 0} refund reservations left pending by a cut-off commit (${o.explained ?? 0} answers 409/422 from in-doubt commits), ${o.uncharged ?? 0} payment rows left started`;
  figures.push(line);
  console.log(line);
}

const other = (node: NodeName): NodeName => (node === 'node1' ? 'node2' : 'node1');

describe.skipIf(why)('failover under load through two gateways', () => {
  it('kill -9 of the primary\'s PostgreSQL: nothing answered 200 is lost, only 503 with Retry-After meanwhile', async () => {
    const leader = (await leaderOf(state))!;
    const o = await underLoad('crash', () => killPostgres(state, leader));
    await expectNothingLost(o);
    note(`kill -9 of the primary's PostgreSQL (${leader})`, o);
    figures.push(`failover figure: live updates after it: ${await expectLiveUpdatesAfter(o)}`);
    await expectWebhookJobRunning();
    expect(o.recoveryMs).toBeLessThan(30_000);
    await expectRevocationSeen('revoke-crash');
  }, 300_000);

  it('a planned switchover (patronictl): the same, and at most a few seconds of 503', async () => {
    const leader = (await leaderOf(state))!;
    const o = await underLoad('switchover', () => switchover(state, leader, other(leader)));
    await expectNothingLost(o);
    note(`switchover ${leader} -> ${other(leader)}`, o);
    figures.push(`failover figure: live updates after it: ${await expectLiveUpdatesAfter(o)}`);
    await expectWebhookJobRunning();
    expect(await leaderOf(state)).toBe(other(leader));
    expect(o.recoveryMs).toBeLessThan(15_000);
    await expectRevocationSeen('revoke-switchover');
  }, 300_000);

  it("the primary's whole node killed (Patroni and PostgreSQL): the standby takes over; the node rejoins as a standby", async () => {
    const leader = (await leaderOf(state))!;
    const o = await underLoad(
      'node',
      () => killNode(state, leader),
      () => void startPatroni(state, leader),
    );
    await expectNothingLost(o);
    note(`kill -9 of the primary's whole node (${leader})`, o);
    figures.push(`failover figure: live updates after it: ${await expectLiveUpdatesAfter(o)}`);
    await expectWebhookJobRunning();
    expect(await leaderOf(state)).toBe(other(leader));
    expect(o.recoveryMs).toBeLessThan(30_000);
    await expectRevocationSeen('revoke-node');
  }, 300_000);
});

describe.skipIf(why)('jobs and webhooks after the failovers', () => {
  it('the recurring webhook job still runs after the failovers above', async () => {
    await expectWebhookJobRunning();
  }, 60_000);

  it("every webhook event of the payments and refunds reached the merchant's receiver at least once", async () => {
    // A delivery whose result a failover cut off is sent again when its 2-minute lease ends.
    const undelivered = async () => {
      const rows = await withDb((db) => db.notification.findMany({ where: { workspaceId: merchant.workspaceId }, select: { body: true, event: true } }));
      const received = new Set(receiver.requests.map((r) => r.body));
      const unprocessed = await withDb((db) => db.outboxEvent.count({ where: { workspaceId: merchant.workspaceId, processedAt: null } }));
      return { rows: rows.length, missing: rows.filter((r) => !received.has(r.body)).map((r) => r.event), unprocessed };
    };
    let left = await undelivered();
    await waitFor(async () => ((left = await undelivered()).missing.length === 0 && left.unprocessed === 0), 180_000, 'every webhook event delivered').catch(() => {});
    expect(left.rows).toBeGreaterThan(0);
    expect({ missing: left.missing.length, unprocessed: left.unprocessed }, JSON.stringify(left.missing.slice(0, 10))).toEqual({ missing: 0, unprocessed: 0 });
    const twice = receiver.requests.length - new Set(receiver.requests.map((r) => r.body)).size;
    const line = `failover figure: webhooks: ${left.rows} notifications, all received; ${twice} received more than once`;
    figures.push(line);
    console.log(line);
  }, 240_000);

  it('due one-time jobs each run once, on one gateway', async () => {
    const listener = await listenToJobStarts(state.ownerUrl);
    try {
      // Timers of payments that do not exist: each run looks, finds nothing and ends (and is removed).
      const ids = await withDb((db) =>
        db.$queryRawUnsafe<Array<{ id: string }>>(
          `INSERT INTO agenda.agenda_jobs (name, data, next_run_at) SELECT 'expire-payment', jsonb_build_object('paymentId', gen_random_uuid()), now() + interval '1 second' FROM generate_series(1, 40) RETURNING id::text AS id`,
        ),
      );
      const left = () => withDb(async (db) => Number((await db.$queryRawUnsafe<Array<{ n: bigint }>>('SELECT count(*) AS n FROM agenda.agenda_jobs WHERE id = ANY($1::uuid[])', ids.map((r) => r.id)))[0]!.n));
      await waitFor(async () => (await left()) === 0, 30_000, 'every due job run and removed');
      await waitFor(() => ids.every((r) => listener.starts.has(r.id)), 5_000, 'every start announced').catch(() => {});
      expect(ids.map((r) => listener.starts.get(r.id) ?? 0)).toEqual(ids.map(() => 1));
    } finally {
      await listener.stop();
    }
  }, 60_000);
});

describe.skipIf(why)('two gateways on one database', () => {
  it('the same Idempotency-Key sent to both at once makes one payment, and both answer the same', async () => {
    const body = paymentBody(merchant as never, { transaction: { channel_reference: 'TWO-GATEWAYS-1' } });
    const headers = { 'Idempotency-Key': 'two-gateways-1' };
    const answers = await Promise.all(gateways.flatMap((url) => [call(url, merchant, 'regular-payment', body, { headers }), call(url, merchant, 'regular-payment', body, { headers })]));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(await withDb((db) => db.payment.count({ where: { channelReference: 'TWO-GATEWAYS-1' } }))).toBe(1);
  });

  it("share a workspace's request window: 10 link calls a minute over both gateways, not 10 each", async () => {
    const m = await seedMerchant('two-gateways-limit');
    await withDb((db) => db.workspace.update({ where: { id: m.workspaceId }, data: { rateLimitLinksPerMinute: 10 } }));
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => call(gateways[i % 2]!, m, 'retrieve-payment-links', {}, { form: 'timestamp' }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200).length, String(statuses)).toBe(10);
    expect(statuses.filter((s) => s === 429).length, String(statuses)).toBe(10);
  });
});
