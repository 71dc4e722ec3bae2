// Operation limits over HTTP and WebSocket (src/graphql/limits.ts), and the dashboard's real
// operations within them. The process-level cases (16 MB, 5,000 levels) are in hostile-process.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildSchema, getIntrospectionQuery, parse, validate, type ValidationRule } from 'graphql';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { LIMITS } from '../../src/graphql/limits.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { seedWorkspace, startTestGateway, type TestGateway } from '../helpers/gateway.ts';
import { dashboardOperations } from '../helpers/dashboard-queries.ts';
import { ROOT } from '../helpers/gateway-process.ts';

let t: TestGateway;
let token: string;
beforeAll(async () => {
  t = await startTestGateway({ env: { NODE_ENV: 'production' } });
  await seedWorkspace(t, { slug: 'acme' });
  token = await createAccessToken(t.gateway.services.db, 'acme', 'dashboard');
});
afterAll(() => t?.stop());

async function gql(query: string, variables?: Record<string, unknown>) {
  const res = await fetch(`${t.gateway.baseUrl}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify({ query, variables }) });
  return { status: res.status, body: (await res.json()) as { data?: unknown; errors?: Array<{ message: string; extensions?: { code?: string } }> } };
}

describe('refused operations over HTTP', () => {
  it('more aliases than the limit: 400 before anything runs', async () => {
    const query = `{ ${Array.from({ length: LIMITS.aliases + 1 }, (_, i) => `a${i}: workspaces { slug }`).join(' ')} }`;
    const res = await gql(query);
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]).toMatchObject({ message: `Aliases limit of ${LIMITS.aliases} exceeded, found ${LIMITS.aliases + 1}.`, extensions: { code: 'QUERY_LIMIT' } });
    expect(res.body.data ?? null).toBeNull();
  });

  it('deeper than the limit: 400; as deep as the limit runs', async () => {
    const atLimit = `{ ${'workspace { '.repeat(LIMITS.depth - 1)}slug${' }'.repeat(LIMITS.depth - 1)} }`;
    expect((await gql(atLimit)).body.errors?.some((e) => e.extensions?.code === 'QUERY_LIMIT') ?? false).toBe(false);
    const tooDeep = `{ ${'workspace { '.repeat(LIMITS.depth)}slug${' }'.repeat(LIMITS.depth)} }`;
    const res = await gql(tooDeep);
    expect(res.status).toBe(400);
    expect(res.body.errors?.map((e) => e.message)).toContain(`Query depth limit of ${LIMITS.depth} exceeded, found ${LIMITS.depth + 1}.`);
  });

  it('the deepest document the token limit lets through (about 1,000 levels) is a 400, not a 500', async () => {
    const levels = Math.floor(LIMITS.tokens / 3) - 1;
    const res = await gql(`${'{ workspace '.repeat(levels)}{ slug }${' }'.repeat(levels)}`);
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.message).toMatch(/^Query depth limit of \d+ exceeded/);
  });

  it('more directives than the limit: 400', async () => {
    const res = await gql(`{ workspaces ${'@include(if: true) '.repeat(LIMITS.directives + 1)}{ slug } }`);
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.message).toBe(`Directives limit of ${LIMITS.directives} exceeded, found ${LIMITS.directives + 1}.`);
  });

  it('a cost over the limit (pagination literals multiply): 400', async () => {
    const fields = 'token createdAt amount currency status paymentStatus cardLastFourDigits refunds { amount status createdAt } customer { channelReference }';
    const res = await gql(`{ ${Array.from({ length: 4 }, (_, i) => `p${i}: payments(first: 200) { edges { cursor node { ${fields} } } }`).join(' ')} }`);
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.message).toMatch(new RegExp(`^Query Cost limit of ${LIMITS.cost} exceeded, found \\d+`));
  });

  it('more tokens than the limit: 400 with the limit named', async () => {
    const res = await gql(`{ ${'a '.repeat(LIMITS.tokens)}}`);
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]).toMatchObject({ message: `Query has more than ${LIMITS.tokens} tokens.`, extensions: { code: 'QUERY_LIMIT' } });
  });

  it('the same refused document sent again is refused the same way (Yoga caches parse and validation results)', async () => {
    for (const query of [`{ ${'a '.repeat(LIMITS.tokens)}}`, `{ ${Array.from({ length: LIMITS.aliases + 1 }, (_, i) => `b${i}: workspaces { slug }`).join(' ')} }`]) {
      for (let i = 0; i < 3; i++) {
        const res = await gql(query);
        expect(res.status).toBe(400);
        expect(res.body.errors?.[0]?.extensions?.code).toBe('QUERY_LIMIT');
      }
    }
  });

  it('a GET query string over the document limit: 400', async () => {
    const q = `{${' '.repeat(LIMITS.documentChars)}__typename}`;
    const res = await fetch(`${t.gateway.baseUrl}/graphql?query=${encodeURIComponent(q)}`, { headers: { Accept: 'application/json' } });
    expect([400, 431]).toContain(res.status); // node:http refuses request lines over 16 KB itself (431)
  });
});

/** Runs one operation over graphql-ws; resolves with the messages received for it and whether the socket is still open. */
function overWebSocket(query: string): Promise<{ messages: Array<{ type: string; payload?: unknown }>; open: boolean }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${t.gateway.baseUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const messages: Array<{ type: string; payload?: unknown }> = [];
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${token}` } })));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { type: string; payload?: unknown };
      if (msg.type === 'connection_ack') return void ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
      messages.push(msg);
      if (msg.type === 'error' || msg.type === 'complete') {
        resolve({ messages, open: ws.readyState === WebSocket.OPEN });
        ws.close();
      }
    });
    ws.on('close', (code) => resolve({ messages: [...messages, { type: `closed ${code}` }], open: false }));
    ws.on('error', reject);
  });
}

describe('the same limits over WebSocket', () => {
  it.each([
    ['aliases', `{ ${Array.from({ length: LIMITS.aliases + 1 }, (_, i) => `a${i}: workspaces { slug }`).join(' ')} }`, /Aliases limit/],
    ['depth', `{ ${'workspace { '.repeat(LIMITS.depth + 1)}slug${' }'.repeat(LIMITS.depth + 1)} }`, /Query depth limit/],
    ['tokens (5,000 levels)', `${'{ a '.repeat(5_000)}${'}'.repeat(5_000)}`, /more than \d+ tokens/],
    ['document length', `{ ${'x '.repeat(LIMITS.documentChars)}}`, /Query document too long/],
  ])('too many %s: an error message for the operation, the connection stays open', async (_name, query, message) => {
    const { messages, open } = await overWebSocket(query);
    expect(messages[0]?.type).toBe('error');
    expect(JSON.stringify(messages[0]?.payload)).toMatch(message);
    expect(open).toBe(true);
  });

  it('an operation within the limits runs', async () => {
    const { messages } = await overWebSocket('{ workspaces { slug } }');
    expect(messages[0]).toMatchObject({ type: 'next', payload: { data: { workspaces: [{ slug: 'acme' }] } } });
  });
});

describe("the dashboard's and support's real operations are within the limits", () => {
  const schema = buildSchema(readFileSync(path.join(ROOT, 'schema.graphql'), 'utf8'));
  const rules: ValidationRule[] = [
    maxDepthRule({ n: LIMITS.depth }),
    maxAliasesRule({ n: LIMITS.aliases }),
    maxDirectivesRule({ n: LIMITS.directives }),
    costLimitRule({ maxCost: LIMITS.cost }),
  ];
  const operations = dashboardOperations();

  it('finds the dashboard operations', () => {
    expect(operations.length).toBeGreaterThan(30);
  });

  it.each(operations.map((o) => [`${o.file}: ${o.document.trim().slice(0, 40)}`, o.document]))('%s', (_name, document) => {
    expect(document.length).toBeLessThanOrEqual(LIMITS.documentChars);
    expect(validate(schema, parse(document, { maxTokens: LIMITS.tokens }), rules)).toEqual([]);
  });

  it("GraphiQL's introspection query and a support listing of 200 payments", () => {
    const support = '{ payments(first: 200) { edges { cursor node { token createdAt amount currency status paymentStatus cardLastFourDigits refunds { amount status } customer { channelReference } } } pageInfo { hasNextPage endCursor } } }';
    for (const document of [getIntrospectionQuery(), support]) expect(validate(schema, parse(document, { maxTokens: LIMITS.tokens }), rules)).toEqual([]);
  });
});
