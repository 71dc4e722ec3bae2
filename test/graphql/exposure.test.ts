// What /graphql shows in production: introspection and GraphiQL only with a valid access token,
// no "Did you mean" suggestions; CORS only for BASE_URL's origin and CORS_ORIGINS, never credentials.
// Development keeps introspection and GraphiQL open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { seedWorkspace, startTestGateway, type TestGateway } from '../helpers/gateway.ts';

const SUPPORT_ORIGIN = 'https://support.example.com';
let prod: TestGateway;
let dev: TestGateway;
let token: string;
let devToken: string;
beforeAll(async () => {
  prod = await startTestGateway({ env: { NODE_ENV: 'production', BASE_URL: 'https://pay.example.com', CORS_ORIGINS: `${SUPPORT_ORIGIN}, https://admin.example.com` } });
  dev = await startTestGateway({ databaseUrl: prod.databaseUrl, clock: prod.clock });
  await seedWorkspace(prod, { slug: 'acme' });
  token = await createAccessToken(prod.gateway.services.db, null, 'support');
  devToken = token;
});
afterAll(async () => {
  await dev?.stop();
  await prod?.stop();
});

const INTROSPECTION = '{ __schema { queryType { name } } }';
const urlOf = (t: TestGateway) => `${t.gateway.port ? `http://127.0.0.1:${t.gateway.port}` : t.gateway.baseUrl}/graphql`;

async function gql(t: TestGateway, query: string, headers: Record<string, string> = {}) {
  const res = await fetch(urlOf(t), { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { data?: Record<string, unknown> | null; errors?: Array<{ message: string }> } };
}

describe('introspection in production', () => {
  it('is refused without a token', async () => {
    const res = await gql(prod, INTROSPECTION);
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors?.[0]?.message).toMatch(/introspection/i);
  });

  it('is refused inside a fragment or with __type too', async () => {
    for (const query of ['{ __type(name: "Query") { name } }', 'query { ...F } fragment F on Query { __schema { types { name } } }']) {
      expect((await gql(prod, query)).body.errors?.[0]?.message).toMatch(/introspection/i);
    }
  });

  it('answers a valid token', async () => {
    const res = await gql(prod, INTROSPECTION, { Authorization: `Bearer ${token}` });
    expect(res.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });

  it('is refused without a token right after the same document was answered to one (validation cache)', async () => {
    const query = '{ __schema { mutationType { name } } }';
    expect((await gql(prod, query, { Authorization: `Bearer ${token}` })).body.data).toEqual({ __schema: { mutationType: { name: 'Mutation' } } });
    const anonymous = await gql(prod, query);
    expect(anonymous.body.data ?? null).toBeNull();
    expect(anonymous.body.errors?.[0]?.message).toMatch(/introspection/i);
  });

  it('is refused over WebSocket without a token and answered with one', async () => {
    const over = (params: Record<string, string>) =>
      new Promise<string>((resolve, reject) => {
        const ws = new WebSocket(urlOf(prod).replace('http', 'ws'), 'graphql-transport-ws');
        ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: params })));
        ws.on('message', (data) => {
          const msg = JSON.parse(String(data)) as { type: string };
          if (msg.type === 'connection_ack') return void ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: INTROSPECTION } }));
          ws.close();
          resolve(String(data));
        });
        ws.on('error', reject);
      });
    expect(await over({})).toMatch(/"type":"error".*introspection/i);
    expect(await over({ Authorization: `Bearer ${token}` })).toContain('"queryType":{"name":"Query"}');
  });

  it('is open in development', async () => {
    expect((await gql(dev, INTROSPECTION)).body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });
});

describe('suggestions', () => {
  it.each([
    ['a misspelt field', '{ workspaes { slug } }'],
    ['a misspelt argument', '{ workspace(slg: "acme") { slug } }'],
  ])('are not given for %s (production and development)', async (_name, query) => {
    for (const t of [prod, dev]) {
      const res = await gql(t, query);
      expect(res.body.errors?.length).toBeGreaterThan(0);
      expect(JSON.stringify(res.body)).not.toMatch(/Did you mean|workspaces"|slug"\?/);
    }
  });
});

describe('GraphiQL in production', () => {
  const page = (t: TestGateway, headers: Record<string, string> = {}) => fetch(urlOf(t), { headers: { Accept: 'text/html', ...headers } });

  it('a browser without a token gets the sign-in page, not GraphiQL', async () => {
    const res = await page(prod);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Access token');
    expect(html).not.toContain('Payment gateway GraphiQL</title>');
    expect(html).not.toMatch(/graphiql\.min|YogaGraphiQL|renderYogaGraphiQL/i);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('an invalid token gets the sign-in page with 401', async () => {
    const res = await page(prod, { Authorization: 'Bearer support_0000' });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('Access token');
  });

  it('a valid token gets GraphiQL with its Authorization header filled in', async () => {
    const res = await page(prod, { Authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Payment gateway GraphiQL');
    expect(html).toContain(token);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('is served to anyone in development, with a placeholder token', async () => {
    const html = await (await page(dev)).text();
    expect(html).toContain('Payment gateway GraphiQL');
    expect(html).toContain('token from npm run gateway -- token create');
    expect(html).not.toContain(devToken);
  });
});

describe('CORS on /graphql', () => {
  const preflight = (origin: string) =>
    fetch(urlOf(prod), { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' } });

  it.each([SUPPORT_ORIGIN, 'https://admin.example.com', 'https://pay.example.com'])('a preflight from %s is allowed, without credentials', async (origin) => {
    const res = await preflight(origin);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it.each(['https://evil.example', 'null', 'https://support.example.com.evil.example'])('a preflight from %s gets no CORS header', async (origin) => {
    const res = await preflight(origin);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('a simple request from an allowed origin is allowed; from a foreign one it gets no CORS header', async () => {
    const allowed = await gql(prod, '{ __typename }', { Origin: SUPPORT_ORIGIN });
    expect(allowed.headers.get('access-control-allow-origin')).toBe(SUPPORT_ORIGIN);
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
    expect(allowed.headers.get('vary')).toMatch(/Origin/);
    const foreign = await gql(prod, '{ __typename }', { Origin: 'https://evil.example' });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(foreign.headers.get('access-control-allow-credentials')).toBeNull();
    expect(foreign.headers.get('vary')).toMatch(/Origin/);
  });

  it('a WebSocket from a foreign origin is refused; from an allowed one or without Origin it opens', async () => {
    const open = (origin?: string) =>
      new Promise<boolean>((resolve) => {
        const ws = new WebSocket(urlOf(prod).replace('http', 'ws'), 'graphql-transport-ws', origin ? { origin } : {});
        ws.on('open', () => (ws.close(), resolve(true)));
        ws.on('error', () => resolve(false));
      });
    expect(await open('https://evil.example')).toBe(false);
    expect(await open(SUPPORT_ORIGIN)).toBe(true);
    expect(await open()).toBe(true);
  });
});

describe('CORS_ORIGINS', () => {
  it('is a comma-separated list of origins; anything else fails at boot', async () => {
    const { loadConfig } = await import('../../src/config.ts');
    expect(loadConfig({ CORS_ORIGINS: ' https://a.example, https://b.example:8443 ,' }).CORS_ORIGINS).toEqual(['https://a.example', 'https://b.example:8443']);
    expect(loadConfig({}).CORS_ORIGINS).toEqual([]);
    for (const bad of ['https://a.example/', 'https://a.example/path', 'a.example', '*']) expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(/CORS_ORIGINS/);
  });
});
