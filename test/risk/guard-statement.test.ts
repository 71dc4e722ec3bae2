// What keeps the card-testing guard cheap on the payment path whatever the tables grow to:
// - its statement is a named prepared statement, so PostgreSQL settles on a generic plan made once
//   per connection, often on a new, nearly empty database; that plan must read the workspace's
//   declines from the index of declined payments (not filter every successful payment of a busy
//   workspace row by row: 15 ms of CPU per attempt at 50,000 payments, docs/performance.md) and
//   the cool-down from the index of blocked attempts;
// - it deletes nothing: the recurring sweep deletes the attempts no window or cool-down reads any
//   more, per workspace's own settings, and is scheduled once per database.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.ts';
import { createDb, type Db } from '../../src/db/client.ts';
import { queryRows } from '../../src/db/raw.ts';
import { countAttempt, guardSources, guardStatement, sweepRiskAttempts } from '../../src/domain/risk/guard.ts';
import { SWEEP_RISK_ATTEMPTS_JOB } from '../../src/jobs/sweep-risk-attempts.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { useGateway } from '../helpers/fixture.ts';

const SETTINGS = { riskGuard: true, riskWindowSeconds: 600, riskCooldownSeconds: 1800, riskIpCards: 5, riskIpCardsFor3ds: 3, riskIpDeclines: 4, riskTargetDeclines: 25, riskWorkspaceDeclines: 200 };

describe('the guard statement as a generic plan on an empty database', () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: await createTestDatabase() });
    await client.connect();
    // The plan a prepared statement settles on after five runs: no parameter value to look at.
    await client.query('SET plan_cache_mode = force_generic_plan');
  });
  afterAll(() => client?.end());

  it('reads declines and cool-downs from the indexes that hold only them, and deletes nothing', async () => {
    const workspaceId = randomUUID();
    const sql = guardStatement(SETTINGS, {
      workspaceId,
      paymentId: randomUUID(),
      fingerprint: 'fp',
      at: new Date('2026-05-04T10:00:00Z'),
      sources: guardSources(SETTINGS, '203.0.113.7', 'link:abc', workspaceId),
      listed: { digits: '41111111', fingerprint: 'fp', ip: '203.0.113.7', email: 'a@example.com', country: 'TR' },
    });
    const literal = (v: unknown) => (v === null ? 'NULL' : v instanceof Date ? `'${v.toISOString().replace('T', ' ').replace('Z', '')}'` : `'${String(v).replace(/'/g, "''")}'`);
    await client.query(`PREPARE guard AS ${sql.text}`);
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE guard(${sql.values.map(literal).join(', ')})`);
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    const paymentReads = plan.split('\n').filter((line) => /Scan.* on "Payment"/.test(line));
    // The workspace's declines by their partial index; a source's window (its attempts' payments by
    // primary key) is read by risk_window, once per source that is not the workspace.
    expect(paymentReads.map((line) => /using "?(\w+)"? on/.exec(line)?.[1]).sort(), plan).toEqual(['Payment_declines_idx']);
    expect(plan).toMatch(/Function Scan on risk_window/);
    expect(plan).toMatch(/using "?RiskAttempt_blocked_idx"? on "RiskAttempt"/);
    expect(plan).not.toMatch(/Delete on/);
    expect(plan).not.toMatch(/Seq Scan/);
  });
});

describe('the guard statement on a connection', () => {
  let db: Db;
  beforeAll(async () => {
    db = createDb(await createTestDatabase(), { max: 1 });
  });
  afterAll(() => db?.$disconnect());

  it('commits its attempt without waiting for the disk, and leaves the connection waiting again for the next statement', async () => {
    const workspaceId = randomUUID();
    const settingOf = async () => (await queryRows<{ s: string }>(db, Prisma.sql`SELECT current_setting('synchronous_commit') AS s`))[0]!.s;
    expect(await settingOf()).toBe('on');
    const counted = await countAttempt(db, SETTINGS, {
      workspaceId,
      paymentId: randomUUID(),
      fingerprint: 'fp',
      at: new Date('2026-05-04T10:00:00Z'),
      sources: guardSources(SETTINGS, '203.0.113.7', null, workspaceId),
      listed: { digits: '41111111', fingerprint: 'fp', ip: '203.0.113.7', email: null, country: null },
    });
    expect(counted.figures.map((f) => f.kind)).toEqual(['ip', 'workspace']);
    expect(await db.riskAttempt.count({ where: { workspaceId } })).toBe(1);
    // One connection in the pool: the same session, where the setting lasted one transaction only.
    expect(await settingOf()).toBe('on');
  });
});

describe('a burst of new cards from one address', () => {
  let db: Db;
  beforeAll(async () => {
    db = createDb(await createTestDatabase(), { max: 10 });
  });
  afterAll(() => db?.$disconnect());

  const attempt = (workspaceId: string, fingerprint: string) =>
    countAttempt(db, SETTINGS, {
      workspaceId,
      paymentId: randomUUID(),
      fingerprint,
      at: new Date(),
      sources: guardSources(SETTINGS, '203.0.113.9', null, workspaceId),
      listed: { digits: '41111111', fingerprint, ip: '203.0.113.9', email: null, country: null },
    });
  const passed = (counted: Awaited<ReturnType<typeof attempt>>[]) => counted.filter((c) => !c.figures.some((f) => f.cardsFired)).length;

  it('sent all at once over ten connections, lets through no more cards than one after the other would', async () => {
    const workspaceId = randomUUID();
    // Five distinct cards block (this one included): four pass, whatever arrives together.
    const counted = await Promise.all(Array.from({ length: 30 }, (_, i) => attempt(workspaceId, `burst-${i}`)));
    expect(passed(counted)).toBe(SETTINGS.riskIpCards - 1);
    // Counted one after the other: 1, 2, 3 ... cards, up to what the window reads (20 rows, 4 × the
    // largest threshold, and this card: 21).
    const cards = counted.map((c) => c.figures.find((f) => f.kind === 'ip')!.cards).sort((a, b) => a - b);
    expect(cards).toEqual([...Array.from({ length: 21 }, (_, i) => i + 1), ...Array<number>(9).fill(21)]);
  });

  it('does not queue a card the window already holds: the same card in parallel is one card', async () => {
    const workspaceId = randomUUID();
    await attempt(workspaceId, 'known');
    const counted = await Promise.all(Array.from({ length: 20 }, () => attempt(workspaceId, 'known')));
    expect(passed(counted)).toBe(20);
    expect(counted.every((c) => c.figures.find((f) => f.kind === 'ip')!.cards === 1)).toBe(true);
  });
});

describe('the sweep of aged attempts', () => {
  const { t, seed } = useGateway({ now: '2026-05-04T10:00:00.000Z' });
  let db: Db;
  beforeAll(() => {
    db = t.gateway.services.db;
  });

  it('is a recurring job, scheduled once', async () => {
    const [row] = await db.$queryRaw<Array<{ n: number }>>(Prisma.sql`SELECT count(*)::int AS n FROM agenda.agenda_jobs WHERE name = ${SWEEP_RISK_ATTEMPTS_JOB}`);
    expect(row!.n).toBe(1);
  });

  it("deletes what neither the window nor the cool-down of the row's workspace reads, and nothing else", async () => {
    const short = await seed();
    const long = await seed();
    await db.workspace.update({ where: { id: long.workspaceId }, data: { riskWindowSeconds: 3600, riskCooldownSeconds: 7200 } });
    const now = new Date('2026-05-04T10:00:00Z');
    const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
    // The short workspace keeps 30 minutes (its cool-down), the long one two hours.
    const ages = [5, 29, 31, 90, 121, 600];
    for (const m of [short, long]) {
      await db.riskAttempt.createMany({ data: ages.map((age) => ({ workspaceId: m.workspaceId, kind: 'ip', key: `198.51.100.${age % 250}`, fingerprint: `fp${age}`, paymentId: randomUUID(), blocked: age === 31, at: ago(age) })) });
    }
    const deleted = await sweepRiskAttempts(db, now);
    expect(deleted).toBe(4 + 2);
    const kept = async (workspaceId: string) => (await db.riskAttempt.findMany({ where: { workspaceId }, orderBy: { at: 'desc' } })).map((r) => Math.round((now.getTime() - r.at.getTime()) / 60_000));
    expect(await kept(short.workspaceId)).toEqual([5, 29]);
    expect(await kept(long.workspaceId)).toEqual([5, 29, 31, 90]);
    // Nothing left to do: a second sweep deletes nothing.
    expect(await sweepRiskAttempts(db, now)).toBe(0);
  });
});
