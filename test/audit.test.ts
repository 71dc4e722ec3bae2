// The audit trail: dashboard-token writes and refusals, support reads, scrubbed input, the
// append-only table, and reading it back (owners their workspace, support everything, CSV).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { createAccessToken } from '../src/domain/access-tokens.ts';
import { auditCsv, scrubForAudit } from '../src/domain/audit.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from './helpers/gateway.ts';

let t: TestGateway;
let m: Merchant;
const tok: Record<string, string> = {};
const ids: Record<string, string> = {};

type Body = { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> }; // eslint-disable-line @typescript-eslint/no-explicit-any
async function gql(token: string, query: string, variables?: Record<string, unknown>, requestId?: string): Promise<Body> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Accept-Language': 'en', Authorization: `Bearer ${token}` };
  if (requestId) headers['X-Request-Id'] = requestId;
  t.clock.advance(1000); // one second between calls: entries sort by their time
  const res = await fetch(`${t.gateway.baseUrl}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return (await res.json()) as Body;
}

const db = () => t.gateway.services.db;
const entries = (where: object = {}) => db().auditEntry.findMany({ where, orderBy: { createdAt: 'asc' } });

const SAVE_PRODUCT = 'mutation SaveIt($input: SaveProductInput!) { saveProduct(input: $input) { result { successful } errors { path } } }';
const product = (ref: string, amount = '25.00') => ({ product: { channelToken: m.channelToken, channelReference: ref, name: 'Kupa', type: 'simple', amount, taxRate: '20' } });
const PAY = 'mutation ($input: PaymentInput!) { regularPayment(input: $input) { result { successful } } }';

beforeAll(async () => {
  t = await startTestGateway();
  m = await seedWorkspace(t, { slug: 'audited' });
  await seedWorkspace(t, { slug: 'elsewhere' });
  for (const role of ['owner', 'operator', 'viewer'] as const) {
    tok[role] = await createAccessToken(db(), 'audited', `${role} desk`, { role });
    ids[role] = (await db().accessToken.findFirstOrThrow({ where: { name: `${role} desk` } })).id;
  }
  tok.otherOwner = await createAccessToken(db(), 'elsewhere', 'their owner');
  tok.support = await createAccessToken(db(), null, 'support desk');
  ids.support = (await db().accessToken.findFirstOrThrow({ where: { name: 'support desk' } })).id;
});
afterAll(() => t?.stop());

describe('recording', () => {
  it('a successful write: token, role, request id, operation and what was sent', async () => {
    const res = await gql(tok.operator!, SAVE_PRODUCT, { input: product('MUG-1') }, 'req-audit-1');
    expect(res.data.saveProduct.result.successful).toBe(true);
    const [row] = await entries({ requestId: 'req-audit-1' });
    expect(row).toMatchObject({
      workspaceId: m.workspaceId, tokenId: ids.operator, tokenName: 'operator desk', role: 'operator',
      operation: 'saveProduct', outcome: 'done', variables: { input: product('MUG-1') },
    });
  });

  it('a write refused by a validation rule wrote nothing and is not recorded', async () => {
    const res = await gql(tok.operator!, SAVE_PRODUCT, { input: product('MUG-2', '0') }, 'req-audit-2');
    expect(res.data.saveProduct.errors).toEqual([{ path: ['product', 'amount'] }]);
    expect(await entries({ requestId: 'req-audit-2' })).toEqual([]);
  });

  it('an attempt refused by role is recorded as forbidden', async () => {
    const res = await gql(tok.viewer!, SAVE_PRODUCT, { input: product('MUG-3') }, 'req-audit-3');
    expect(res.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(await entries({ requestId: 'req-audit-3' })).toEqual([expect.objectContaining({ tokenId: ids.viewer, role: 'viewer', operation: 'saveProduct', outcome: 'forbidden' })]);
    expect(await db().product.count({ where: { channelReference: 'MUG-3' } })).toBe(0);
  });

  it('card data never reaches an entry, typed with spaces or dashes either; a bank reference stays readable', async () => {
    const input = {
      transaction: { channelToken: m.channelToken, channelReference: 'A-1', amount: '10.00', currency: 'TRY', installmentNumber: 1, ip: '203.0.113.7' },
      card: { holderName: 'AYSE YILMAZ', number: '4111111111111111', securityCode: '739', expiryMonth: '12', expiryYear: '2030' },
      customer: { channelReference: 'C-1', firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com', address: 'kart 5555555555554444' },
    };
    // Free text typed by hand: cards as people type them, and the reference the bank asked about.
    input.customer.address += ', 4111 1111 1111 1111 / 4111-1111-1111-1111, iade ref 230300671782';
    const res = await gql(tok.owner!, PAY, { input }, 'req-audit-4');
    expect(res.data.regularPayment.result.successful).toBe(true);
    const [row] = await entries({ requestId: 'req-audit-4' });
    const text = JSON.stringify(row!.variables);
    expect(text).not.toContain('4111111111111111');
    expect(text).not.toContain('5555555555554444');
    expect(text).not.toContain('739');
    expect(text).not.toMatch(/4111[ -]1111/);
    expect(row!.variables).toMatchObject({
      input: { card: '[removed]', transaction: { amount: '10.00' }, customer: { address: 'kart 555555******4444, 411111******1111 / 411111******1111, iade ref 230300671782' } },
    });
  });

  it('secrets and credentials are removed wherever they sit', () => {
    expect(scrubForAudit({ input: { credentials: { apiKey: 'k', secretKey: 's' }, secret: 'x', nested: [{ password: 'p', cvv: '123' }], note: 'ok' } })).toEqual({
      input: { credentials: '[removed]', secret: '[removed]', nested: [{ password: '[removed]', cvv: '[removed]' }], note: 'ok' },
    });
  });

  it('a support read of another workspace is recorded; a dashboard read is not', async () => {
    const Q = 'query WhoPays($slug: String) { workspace(slug: $slug) { slug } }';
    const read = await gql(tok.support!, Q, { slug: 'elsewhere' }, 'req-audit-5');
    expect(read.data.workspace).toEqual({ slug: 'elsewhere' });
    expect(await entries({ requestId: 'req-audit-5' })).toEqual([
      expect.objectContaining({ tokenId: ids.support, tokenName: 'support desk', role: 'support', workspaceId: null, operation: 'WhoPays', outcome: 'read', variables: { slug: 'elsewhere' } }),
    ]);
    await gql(tok.owner!, Q, {}, 'req-audit-6');
    expect(await entries({ requestId: 'req-audit-6' })).toEqual([]);
  });

  it('a support subscription is recorded as a read', async () => {
    const stop = new AbortController();
    const res = await fetch(`${t.gateway.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', Authorization: `Bearer ${tok.support}`, 'X-Request-Id': 'req-audit-8' },
      body: JSON.stringify({ query: 'subscription Watch($t: String!) { paymentUpdated(token: $t) { token } }', variables: { t: '00000000-0000-4000-8000-000000000000' } }),
      signal: stop.signal,
    });
    expect(res.status).toBe(200);
    await expect.poll(() => entries({ requestId: 'req-audit-8' })).toEqual([expect.objectContaining({ role: 'support', operation: 'Watch', outcome: 'read' })]);
    stop.abort();
  });

  it('a support token trying to write is recorded as forbidden', async () => {
    const res = await gql(tok.support!, SAVE_PRODUCT, { input: product('MUG-4') }, 'req-audit-7');
    expect(res.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(await entries({ requestId: 'req-audit-7' })).toEqual([expect.objectContaining({ role: 'support', operation: 'saveProduct', outcome: 'forbidden' })]);
  });
});

describe('append-only', () => {
  it.each([
    ['UPDATE', `UPDATE "AuditEntry" SET "operation" = 'nothing'`],
    ['DELETE', `DELETE FROM "AuditEntry"`],
    ['TRUNCATE', `TRUNCATE "AuditEntry"`],
  ])('the database refuses %s', async (_name, sql) => {
    const before = await entries();
    expect(before.length).toBeGreaterThan(0);
    const client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    try {
      await expect(client.query(sql)).rejects.toThrow(/append-only/);
    } finally {
      await client.end();
    }
    expect(await entries()).toEqual(before);
  });
});

describe('reading the trail', () => {
  const LIST = 'query ($filter: AuditFilter) { auditEntries(filter: $filter, first: 50) { edges { node { operation outcome tokenName role workspaceId variables } } } }';
  const ops = (b: Body) => (b.data.auditEntries.edges as Array<{ node: { operation: string; outcome: string } }>).map((e) => `${e.node.operation}:${e.node.outcome}`);

  it("an owner sees its workspace's entries, newest first, and filters them", async () => {
    const all = await gql(tok.owner!, LIST);
    expect(ops(all)).toEqual(['regularPayment:done', 'saveProduct:forbidden', 'saveProduct:done']);
    expect(ops(await gql(tok.owner!, LIST, { filter: { operation: 'saveProduct' } }))).toEqual(['saveProduct:forbidden', 'saveProduct:done']);
    expect(ops(await gql(tok.owner!, LIST, { filter: { tokenId: ids.viewer } }))).toEqual(['saveProduct:forbidden']);
    expect(ops(await gql(tok.owner!, LIST, { filter: { tokenId: 'not-an-id' } }))).toEqual([]);
    const future = new Date(t.clock.now().getTime() + 60_000).toISOString();
    expect(ops(await gql(tok.owner!, LIST, { filter: { created: { from: future } } }))).toEqual([]);
    expect(ops(await gql(tok.owner!, LIST, { filter: { created: { to: future } } }))).toHaveLength(3);
    expect(ops(await gql(tok.otherOwner!, LIST))).toEqual([]);
  });

  it('support sees every entry; operators and viewers may not read the trail', async () => {
    expect(ops(await gql(tok.support!, LIST))).toContain('WhoPays:read');
    for (const role of ['operator', 'viewer']) {
      const res = await gql(tok[role]!, LIST);
      expect(res.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
  });

  it('exports the same selection as CSV', async () => {
    const res = await gql(tok.owner!, 'query ($filter: AuditFilter) { auditCsv(filter: $filter) }', { filter: { operation: 'saveProduct' } });
    const lines = (res.data.auditCsv as string).trimEnd().split('\r\n');
    expect(lines[0]).toBe('time,operation,outcome,token_id,token_name,role,request_id,workspace_id,variables,person_id,session_id,address');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(',saveProduct,forbidden,');
    expect(lines[2]).toContain('operator desk,operator,req-audit-1,');
  });

  it('CSV cells are quoted, and formulas are neutralised', () => {
    const row = { id: 'i', createdAt: new Date('2026-01-01T00:00:00Z'), workspaceId: null, tokenId: 't', tokenName: '=HYPERLINK("x")', role: 'owner' as const, requestId: null, personId: null, sessionId: null, address: null, operation: 'op', outcome: 'done', variables: { a: 'b,c' } };
    expect(auditCsv([row]).split('\r\n')[1]).toBe(`2026-01-01T00:00:00.000Z,op,done,t,"'=HYPERLINK(""x"")",owner,,,"{""a"":""b,c""}",,,`);
  });
});

describe('token management through GraphQL', () => {
  const CREATE = 'mutation ($name: String!, $role: AccessTokenRole!) { createAccessToken(name: $name, role: $role) { token accessToken { id name role active } errors { path code } } }';

  it('an owner creates a token of a role, shown once, that works at once with that role', async () => {
    const res = await gql(tok.owner!, CREATE, { name: 'Night shift', role: 'operator' });
    const created = res.data.createAccessToken;
    expect(created.errors).toEqual([]);
    expect(created.accessToken).toMatchObject({ name: 'Night shift', role: 'operator', active: true });
    expect(created.token).toMatch(/^dash_/);
    const listed = await gql(tok.owner!, '{ accessTokens { id name role } }');
    expect(listed.data.accessTokens).toContainEqual({ id: created.accessToken.id, name: 'Night shift', role: 'operator' });
    expect(JSON.stringify(listed)).not.toContain(created.token);
    const asIt = await gql(created.token, 'mutation { rotateApiCredentials { result { successful } } }');
    expect(asIt.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    // The audit entry of the creation holds the name and role, never the token.
    const [row] = await entries({ operation: 'createAccessToken' });
    expect(row!.variables).toEqual({ name: 'Night shift', role: 'operator' });
  });

  it('a bad name is a validation error at its path and creates nothing', async () => {
    const before = await db().accessToken.count();
    const res = await gql(tok.owner!, CREATE, { name: '  ', role: 'viewer' });
    expect(res.data.createAccessToken).toMatchObject({ token: null, accessToken: null, errors: [{ path: ['name'], code: 'required' }] });
    expect(await db().accessToken.count()).toBe(before);
  });

  it('only owners list tokens; an owner revokes one and it stops working', async () => {
    const denied = await gql(tok.viewer!, '{ accessTokens { id } }');
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const victim = await createAccessToken(db(), 'audited', 'temp', { role: 'viewer' });
    const id = (await db().accessToken.findFirstOrThrow({ where: { name: 'temp' } })).id;
    const res = await gql(tok.owner!, 'mutation ($id: ID!) { revokeAccessToken(id: $id) { accessToken { active } errors { path } } }', { id });
    expect(res.data.revokeAccessToken).toEqual({ accessToken: { active: false }, errors: [] });
    const after = await fetch(`${t.gateway.baseUrl}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${victim}` }, body: '{"query":"{ workspaces { slug } }"}' });
    expect(after.status).toBe(401);
  });
});

describe('over WebSocket', () => {
  it('a write sent over WebSocket carries a request id of its own: the one the caller gave, else a new one per operation', async () => {
    const sockets = await seedWorkspace(t, { slug: 'sockets' });
    const token = await createAccessToken(db(), 'sockets', 'socket desk', { role: 'operator' });
    const tokenId = (await db().accessToken.findFirstOrThrow({ where: { name: 'socket desk' } })).id;
    const ws = createClient({ url: `${t.gateway.baseUrl.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${token}` } });
    const run = (ref: string, extensions?: Record<string, unknown>) => new Promise<Body>((resolve, reject) => {
      let got: Body = {};
      t.clock.advance(1000); // entries sort by their time
      ws.subscribe({ query: SAVE_PRODUCT, variables: { input: { product: { ...product(ref).product, channelToken: sockets.channelToken } } }, extensions }, { next: (v) => void (got = v as Body), error: reject, complete: () => resolve(got) });
    });
    try {
      expect((await run('MUG-WS-1', { requestId: 'req-audit-ws' })).data.saveProduct.result.successful).toBe(true);
      expect((await run('MUG-WS-2')).data.saveProduct.result.successful).toBe(true);
      expect((await run('MUG-WS-3')).data.saveProduct.result.successful).toBe(true);
    } finally {
      await ws.dispose();
    }
    const refOf = (row: { variables: unknown }) => (row.variables as { input: { product: { channelReference: string } } }).input.product.channelReference;
    const rows = await entries({ tokenId });
    expect(rows.map((r) => [refOf(r), r.outcome])).toEqual([['MUG-WS-1', 'done'], ['MUG-WS-2', 'done'], ['MUG-WS-3', 'done']]);
    expect(rows[0]!.requestId).toBe('req-audit-ws');
    expect(rows[1]!.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(rows[2]!.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(rows[2]!.requestId).not.toBe(rows[1]!.requestId);
  });
});
