// A call's admission (src/rest/admission.ts): its credential comes from a per-process cache, and
// one statement per call reads whether it is still live, the workspace as it is now and the
// call's count against the request limits. These tests change credentials and workspaces through
// another database client (as the CLI or another gateway process does) right after a call has put
// the key in the cache, and expect the very next call to see the change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/client.ts';
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
  t = await resources.startGateway({ env: { RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_LINKS_PER_MINUTE: '0' } });
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

    expectPlainError(await m.call('retrieve-bin', OK_BODY), 401, 'auth_invalid_key');
    expect((await m.call('retrieve-bin', OK_BODY, { apiKey: fresh.apiKey, secret: fresh.apiSecret })).status).toBe(200);
  });

  it('a revoked key with a wrong signature gets the answer of an uncached gateway: invalid key, unsigned', async () => {
    const m = await cachedMerchant();
    await rotateCredentials(other, t.gateway.masterKey, m.team);

    const res = await m.call('retrieve-bin', OK_BODY, { secret: 'guessed' });
    expectPlainError(res, 401, 'auth_invalid_key');
    expect(res.headers.get('x-signature')).toBeNull();
  });

  it('a workspace suspended by another client answers 403 at once, and 200 once reactivated', async () => {
    const m = await cachedMerchant();
    await updateWorkspace(other, m.team, { active: false });
    expectPlainError(await m.call('retrieve-bin', OK_BODY), 403, 'workspace_inactive');
    await updateWorkspace(other, m.team, { active: true });
    expect((await m.call('retrieve-bin', OK_BODY)).status).toBe(200);
  });

  it('a workspace\'s own request limit set by another client applies to the next calls', async () => {
    const m = await cachedMerchant();
    await other.workspace.update({ where: { id: m.workspaceId }, data: { rateLimitPerSecond: 1 } });
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
