import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';

let t: TestGateway;
let acme: Merchant;
let globex: Merchant;
let acmeToken: string;
let supportToken: string;

async function gql(query: string, opts: { token?: string; authorization?: string; variables?: Record<string, unknown> } = {}) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Accept-Language': 'en' };
  if (opts.authorization !== undefined) headers.Authorization = opts.authorization;
  else if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  const res = await fetch(`${t.gateway.baseUrl}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables: opts.variables }) });
  return { status: res.status, body: (await res.json()) as { data?: GraphQLData | null; errors?: Array<{ message: string; extensions?: { code?: string } }> } };
}

interface GraphQLData {
  workspaces?: Array<{ slug: string }>;
  workspace?: { slug: string; paymentAccounts: Array<{ token: string }> } | null;
  retrieveBin?: unknown;
}

const WORKSPACES = '{ workspaces { slug } }';
const WORKSPACE = 'query ($slug: String) { workspace(slug: $slug) { slug paymentAccounts { token } } }';

beforeAll(async () => {
  t = await startTestGateway();
  acme = await seedWorkspace(t, { slug: 'acme' });
  globex = await seedWorkspace(t, { slug: 'globex' });
  acmeToken = await createAccessToken(t.gateway.services.db, 'acme', 'dashboard');
  supportToken = await createAccessToken(t.gateway.services.db, null, 'support');
});
afterAll(() => t?.stop());

describe('GraphQL bearer tokens', () => {
  it('a dashboard token lists only its own workspace', async () => {
    const res = await gql(WORKSPACES, { token: acmeToken });
    expect(res.status).toBe(200);
    expect(res.body.data?.workspaces).toEqual([{ slug: 'acme' }]);
  });

  it('a dashboard token reads its workspace, and another workspace as not found', async () => {
    const own = await gql(WORKSPACE, { token: acmeToken });
    expect(own.body.data?.workspace).toEqual({ slug: 'acme', paymentAccounts: [{ token: acme.accountToken }] });
    const other = await gql(WORKSPACE, { token: acmeToken, variables: { slug: 'globex' } });
    expect(other.body.errors).toBeUndefined();
    expect(other.body.data?.workspace).toBeNull();
  });

  it('a support token lists every workspace and reads any by slug', async () => {
    const all = await gql(WORKSPACES, { token: supportToken });
    expect(all.body.data?.workspaces?.map((w) => w.slug)).toEqual(['acme', 'globex']);
    const one = await gql(WORKSPACE, { token: supportToken, variables: { slug: 'globex' } });
    expect(one.body.data?.workspace).toEqual({ slug: 'globex', paymentAccounts: [{ token: globex.accountToken }] });
  });

  it('a support token cannot act for a workspace', async () => {
    const res = await gql('{ retrieveBin(input: { card: { bin: "41111111" } }) { result { successful } } }', { token: supportToken });
    expect(res.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(res.body.errors?.[0]?.message).toBe('This access token is read-only.');
  });

  it('without a token, fields that need one fail as unauthenticated', async () => {
    const res = await gql(WORKSPACES);
    expect(res.body.data?.workspaces ?? null).toBeNull();
    expect(res.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it.each([
    ['an unknown token', 'Bearer dash_0000000000000000000000000000000000000000000000000000000000000000'],
    ['a malformed header', 'Basic abc'],
    ['an empty bearer', 'Bearer '],
  ])('%s is a 401', async (_name, authorization) => {
    const res = await gql(WORKSPACES, { authorization });
    expect(res.status).toBe(401);
    expect(res.body.errors?.[0]?.message).toBe('The access token is invalid.');
    expect(res.body.data ?? null).toBeNull();
  });

  it('a revoked token is a 401', async () => {
    const token = await createAccessToken(t.gateway.services.db, 'globex', 'to revoke');
    expect((await gql(WORKSPACES, { token })).status).toBe(200);
    await t.gateway.services.db.accessToken.updateMany({ where: { name: 'to revoke' }, data: { revokedAt: new Date() } });
    expect((await gql(WORKSPACES, { token })).status).toBe(401);
  });
});
