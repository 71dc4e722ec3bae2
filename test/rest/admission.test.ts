// A call's admission (src/rest/admission.ts): its credential comes from a per-process cache, and
// one statement reads whether it is still live, the workspace as it is now and the call's count
// against the request limits; the process remembers what it read (admission-memory.ts) until a
// change is announced (migration 0016). These tests change credentials and workspaces through
// another database client (as the CLI or another gateway process does) right after a call has
// put the key in both caches, and expect the next call after the change's notification to see it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { createDb, type Db } from '../../src/db/client.ts';
import { NOTIFICATIONS_APPLICATION } from '../../src/db/notifications.ts';
import { rotateCredentials, updateWorkspace } from '../../src/domain/workspaces.ts';
import { admit } from '../../src/rest/admission.ts';
import { seedWorkspace, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { useResources } from '../helpers/fixture.ts';
import { expectPlainError } from '../helpers/messages.ts';

const OK_BODY = { card: { bin: '41111111' }, transaction: { amount: '100.00' } };

const resources = useResources();
let t: TestGateway;
/** Another client on the gateway's database: the CLI, or a second gateway process. */
let other: Db;

beforeAll(async () => {
  // Entries live a minute here, so that only notifications can make the gateway read again.
  t = await resources.startGateway({ env: { RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_LINKS_PER_MINUTE: '0', ADMISSION_MEMORY_MS: '60000' } });
  other = createDb(t.databaseUrl, { max: 2 });
});
afterAll(async () => {
  await other?.$disconnect();
});

/** A merchant whose key the gateway has already cached (one successful call). */
async function cachedMerchant(): Promise<Merchant> {
  const m = await seedWorkspace(t);
  expect((await m.call('retrieve-bin', OK_BODY)).status).toBe(200);
  return m;
}

describe('changes made elsewhere are seen by the next call', () => {
  it('a key rotated by another client is refused at once, and the new key works', async () => {
    const m = await cachedMerchant();
    const fresh = await rotateCredentials(other, t.gateway.masterKey, m.team);
    await t.gateway.admission.synced();

    expectPlainError(await m.call('retrieve-bin', OK_BODY), 401, 'auth_invalid_key');
    expect((await m.call('retrieve-bin', OK_BODY, { apiKey: fresh.apiKey, secret: fresh.apiSecret })).status).toBe(200);
  });

  it('a revoked key with a wrong signature gets the answer of an uncached gateway: invalid key, unsigned', async () => {
    const m = await cachedMerchant();
    await rotateCredentials(other, t.gateway.masterKey, m.team);
    await t.gateway.admission.synced();

    const res = await m.call('retrieve-bin', OK_BODY, { secret: 'guessed' });
    expectPlainError(res, 401, 'auth_invalid_key');
    expect(res.headers.get('x-signature')).toBeNull();
  });

  it('a workspace suspended by another client answers 403 at once, and 200 once reactivated', async () => {
    const m = await cachedMerchant();
    await updateWorkspace(other, m.team, { active: false });
    await t.gateway.admission.synced();
    expectPlainError(await m.call('retrieve-bin', OK_BODY), 403, 'workspace_inactive');
    await updateWorkspace(other, m.team, { active: true });
    await t.gateway.admission.synced();
    expect((await m.call('retrieve-bin', OK_BODY)).status).toBe(200);
  });

  it('a workspace\'s own request limit set by another client applies to the next calls', async () => {
    const m = await cachedMerchant();
    await other.workspace.update({ where: { id: m.workspaceId }, data: { rateLimitPerSecond: 1 } });
    await t.gateway.admission.synced();
    // Sequential calls: a window boundary can let a second one through, never a third.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await m.call('retrieve-bin', OK_BODY)).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(2);
  });
});

describe('the admission statement', () => {
  it('returns the workspace row exactly as Prisma reads it (types included)', async () => {
    const m = await seedWorkspace(t);
    await other.workspace.update({ where: { id: m.workspaceId }, data: { testClockOffsetMs: 86_400_000n, rateLimitPerSecond: 7 } });
    const credential = await other.apiCredential.findFirstOrThrow({ where: { workspaceId: m.workspaceId } });

    const admission = await admit(t.gateway.services.db, credential.id, m.team, 'retrieve-bin', null);

    expect(admission.kind).toBe('admitted');
    expect(admission.kind === 'admitted' && admission.workspace).toEqual(await other.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } }));
  });

  it('refuses a credential of another team, and counts nothing for it', async () => {
    const m = await seedWorkspace(t);
    const credential = await other.apiCredential.findFirstOrThrow({ where: { workspaceId: m.workspaceId } });
    const limits = { perSecond: 5, linksPerMinute: 5 };

    expect(await admit(t.gateway.services.db, credential.id, 'someone-else', 'retrieve-bin', limits)).toEqual({ kind: 'unknown' });
  });

  it('keeps its windows in an unlogged table: a count commits without waiting for a WAL flush (migration 0015)', async () => {
    const [table] = await other.$queryRaw<Array<{ persistence: string }>>`
      SELECT relpersistence::text AS persistence FROM pg_class WHERE oid = 'ratelimit.requests'::regclass`;
    expect(table).toEqual({ persistence: 'u' });
  });

  it('counts one point per admitted call, in the per-second window and, for link operations, the links window', async () => {
    const m = await seedWorkspace(t);
    const credential = await other.apiCredential.findFirstOrThrow({ where: { workspaceId: m.workspaceId } });
    const limits = { perSecond: 1000, linksPerMinute: 1000 };
    const points = async () =>
      Object.fromEntries(
        (await other.$queryRaw<Array<{ key: string; points: number }>>`SELECT key, points FROM ratelimit.requests WHERE key LIKE ${`%:${m.workspaceId}`}`).map((r) => [r.key.split(':')[0], r.points]),
      );

    await admit(t.gateway.services.db, credential.id, m.team, 'retrieve-bin', limits);
    await admit(t.gateway.services.db, credential.id, m.team, 'create-payment-link', limits);
    const counted = await points();

    // Both calls are in the per-second window unless a second boundary fell between them.
    expect([1, 2]).toContain(counted.all);
    expect(counted.links).toBe(1);
  });

  it('answers limited with the seconds left in the refusing window, and a suspended workspace counts nothing', async () => {
    const m = await seedWorkspace(t);
    const credential = await other.apiCredential.findFirstOrThrow({ where: { workspaceId: m.workspaceId } });
    const limits = { perSecond: 0, linksPerMinute: 1 };
    expect((await admit(t.gateway.services.db, credential.id, m.team, 'create-payment-link', limits)).kind).toBe('admitted');
    const refused = await admit(t.gateway.services.db, credential.id, m.team, 'create-payment-link', limits);
    expect(refused.kind).toBe('limited');
    expect(refused.kind === 'limited' && refused.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.kind === 'limited' && refused.retryAfter).toBeLessThanOrEqual(60);
    // Other operations are not in the links window.
    expect((await admit(t.gateway.services.db, credential.id, m.team, 'retrieve-bin', limits)).kind).toBe('admitted');

    await updateWorkspace(other, m.team, { active: false });
    const before = await other.$queryRaw<Array<{ points: number }>>`SELECT points FROM ratelimit.requests WHERE key = ${`links:${m.workspaceId}`}`;
    expect((await admit(t.gateway.services.db, credential.id, m.team, 'create-payment-link', limits)).kind).toBe('inactive');
    const after = await other.$queryRaw<Array<{ points: number }>>`SELECT points FROM ratelimit.requests WHERE key = ${`links:${m.workspaceId}`}`;
    expect(after).toEqual(before);
  });
});

describe('what a process remembers (admission-memory.ts)', () => {
  const perSecondPoints = async (workspaceId: string) =>
    (await other.$queryRaw<Array<{ points: number }>>`SELECT points FROM ratelimit.requests WHERE key = ${`all:${workspaceId}`}`)[0]?.points;

  it('every change of a workspace or a credential is announced with the workspace\'s id, a link numbering bump is not (migration 0016)', async () => {
    const m = await seedWorkspace(t);
    const listener = new pg.Client({ connectionString: t.databaseUrl });
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.connect();
    try {
      await listener.query('LISTEN gateway_admission');
      await other.workspace.update({ where: { id: m.workspaceId }, data: { linkCounter: { increment: 1 } } });
      await other.workspace.update({ where: { id: m.workspaceId }, data: { name: 'Renamed' } });
      await other.apiCredential.updateMany({ where: { workspaceId: m.workspaceId }, data: { revokedAt: new Date() } });
      await other.$executeRaw`SELECT pg_notify('gateway_admission', 'end')`;
      await vi.waitFor(() => expect(heard).toContain('end'));
      expect(heard).toEqual([m.workspaceId, m.workspaceId, 'end']);
    } finally {
      await listener.end();
    }
  });

  it('forgets everything when its LISTEN connection is lost, so a change made meanwhile is seen once it is back', async () => {
    const m = await cachedMerchant();
    const listening = async () =>
      (await other.$queryRaw<Array<{ pid: number }>>`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = ${NOTIFICATIONS_APPLICATION}`).map((r) => r.pid);
    const [before] = await listening();
    await other.$executeRaw`SELECT pg_terminate_backend(${before}::int)`;
    await vi.waitFor(async () => expect(await listening()).not.toContain(before));
    // Made while nobody listens: its notification reaches no one.
    await updateWorkspace(other, m.team, { active: false });
    await vi.waitFor(async () => expect((await listening()).length).toBe(1), { timeout: 5_000 });

    expectPlainError(await m.call('retrieve-bin', OK_BODY), 403, 'workspace_inactive');
  });

  it('claims a twentieth of the per-second limit in one statement and admits that many calls from it', async () => {
    const m = await seedWorkspace(t);
    const credential = await other.apiCredential.findFirstOrThrow({ where: { workspaceId: m.workspaceId } });
    const limits = { perSecond: 100, linksPerMinute: 0 };
    // The seeding's own announcements arrive first: a read they overtook would not be kept.
    await t.gateway.admission.synced();

    for (let i = 0; i < 3; i++) expect((await admit(t.gateway.services.db, credential.id, m.team, 'retrieve-bin', limits, t.gateway.admission)).kind).toBe('admitted');

    // Three calls, one claim of 5 points (a second boundary in between starts a new window with 5 too).
    expect(await perSecondPoints(m.workspaceId)).toBe(5);
  });

  /**
   * A new workspace (limit 100 per second) whose current window already holds `points` and lasts
   * a minute, so that no window boundary falls inside the test.
   */
  async function workspaceWithWindow(points: number) {
    const m = await seedWorkspace(t);
    const credential = await other.apiCredential.findFirstOrThrow({ where: { workspaceId: m.workspaceId } });
    await other.$executeRaw`INSERT INTO ratelimit.requests (key, points, expire) VALUES (${`all:${m.workspaceId}`}, ${points}, ${Date.now() + 60_000}::bigint)`;
    await t.gateway.admission.synced();
    return { m, credential, limits: { perSecond: 100, linksPerMinute: 0 } };
  }

  it('never admits past the window\'s limit: a claim gets what is left, and a refused window refuses without a statement until it ends', async () => {
    // A window with 2 points left.
    const { m, credential, limits } = await workspaceWithWindow(98);

    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await admit(t.gateway.services.db, credential.id, m.team, 'retrieve-bin', limits, t.gateway.admission));

    expect(answers.map((a) => a.kind)).toEqual(['admitted', 'admitted', 'limited', 'limited']);
    for (const a of answers.slice(2)) expect(a.kind === 'limited' && a.retryAfter).toBeGreaterThanOrEqual(55);
    // Two claims of 5 (the first granted 2, the second none); the fourth call asked nothing.
    expect(await perSecondPoints(m.workspaceId)).toBe(108);
  });

  it('calls that find nothing to recall while a claim is running wait for it instead of claiming too', async () => {
    const { m, credential, limits } = await workspaceWithWindow(0);

    // Twelve at once, leases of 5: the first claims 5 while eleven wait; four of them use its
    // points, and the seven left do the same again behind the next claim, and so on.
    const answers = await Promise.all(Array.from({ length: 12 }, () => admit(t.gateway.services.db, credential.id, m.team, 'retrieve-bin', limits, t.gateway.admission)));

    expect(answers.every((a) => a.kind === 'admitted')).toBe(true);
    expect(await perSecondPoints(m.workspaceId)).toBe(15);
  });

  it('without a memory every call counts one point in the database, as link operations always do', async () => {
    const m = await seedWorkspace(t);
    const credential = await other.apiCredential.findFirstOrThrow({ where: { workspaceId: m.workspaceId } });
    const limits = { perSecond: 100, linksPerMinute: 100 };
    await other.$executeRaw`INSERT INTO ratelimit.requests (key, points, expire) VALUES (${`all:${m.workspaceId}`}, 0, ${Date.now() + 60_000}::bigint)`;

    await admit(t.gateway.services.db, credential.id, m.team, 'retrieve-bin', limits);
    await admit(t.gateway.services.db, credential.id, m.team, 'create-payment-link', limits, t.gateway.admission);
    await admit(t.gateway.services.db, credential.id, m.team, 'create-payment-link', limits, t.gateway.admission);

    expect(await perSecondPoints(m.workspaceId)).toBe(3);
  });
});
