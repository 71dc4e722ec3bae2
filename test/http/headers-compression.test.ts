// What every answer carries (nosniff, no framing, no Referer, a fitting Content-Security-Policy,
// HSTS only over https) and how static answers travel: brotli or gzip by Accept-Encoding, the
// same bytes once decompressed, cached for good when the name is hashed, revalidated otherwise;
// and the favicon. Real gateways on 127.0.0.1, raw node:http requests (fetch would decompress).
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { startTestGateway, type TestGateway } from '../helpers/gateway.ts';
import { chooseEncoding } from '../../src/http/static-body.ts';
import { loadConfig } from '../../src/config.ts';

const { t } = useGateway();

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    // The path as given (a URL string would resolve %2e%2e before sending).
    const req = http.request(base, { path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (r: Raw): Buffer =>
  r.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(r.body) : r.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(r.body) : r.body;

const HTML = { accept: 'text/html,application/xhtml+xml' };

async function dashboardScript(): Promise<string> {
  const index = (await get(t.gateway.baseUrl, '/dashboard/')).body.toString();
  return /src="(\/dashboard\/assets\/index-[\w-]+\.js)"/.exec(index)![1]!;
}

describe('compression', { timeout: 60_000 }, () => {
  it.each([
    ['GraphiQL', '/graphql', HTML, 0.3],
    ['the dashboard script', 'script', {}, 0.35],
    ['Swagger UI', '/docs/5.35.0/swagger-ui-bundle.js', {}, 0.35],
    ['the OpenAPI document', '/openapi.json', {}, 0.2],
  ])('%s: br and gzip a small fraction of the bytes, the same bytes once decompressed', async (_name, where, headers, fraction) => {
    const path = where === 'script' ? await dashboardScript() : where;
    const plain = await get(t.gateway.baseUrl, path, headers);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('Accept-Encoding');
    expect(plain.body.length).toBeGreaterThan(10_000);
    for (const encoding of ['br', 'gzip'] as const) {
      const packed = await get(t.gateway.baseUrl, path, { ...headers, 'accept-encoding': encoding === 'br' ? 'gzip, deflate, br' : 'gzip' });
      expect(packed.headers['content-encoding']).toBe(encoding);
      expect(packed.headers.vary).toContain('Accept-Encoding');
      expect(Number(packed.headers['content-length'])).toBe(packed.body.length);
      expect(packed.body.length / plain.body.length).toBeLessThan(fraction);
      expect(decode(packed).equals(plain.body)).toBe(true);
    }
  });

  it('GraphiQL: 9 MB as identity, under 2.5 MB in brotli; same ETag answers 304', async () => {
    const br = await get(t.gateway.baseUrl, '/graphql', { ...HTML, 'accept-encoding': 'br' });
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(br.body.length).toBeLessThan(2_500_000);
    expect(decode(br).length).toBeGreaterThan(5_000_000);
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers.vary).toBe('Accept, Accept-Encoding');
    const again = await get(t.gateway.baseUrl, '/graphql', { ...HTML, 'accept-encoding': 'br', 'if-none-match': br.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // A GraphQL call at the same address is still Yoga's JSON.
    const res = await fetch(`${t.gateway.baseUrl}/graphql?query=${encodeURIComponent('{ __typename }')}`, { headers: { accept: 'application/json' } });
    expect(await res.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('caches hashed assets for good and pages at fixed addresses with revalidation', async () => {
    for (const path of [await dashboardScript(), '/docs/5.35.0/swagger-ui.css', '/docs/5.35.0/swagger-ui-bundle.js']) {
      expect((await get(t.gateway.baseUrl, path)).headers['cache-control'], path).toBe('public, max-age=31536000, immutable');
    }
    for (const path of ['/dashboard/', '/dashboard/payments', '/docs', '/docs/init.js', '/openapi.json']) {
      const res = await get(t.gateway.baseUrl, path);
      expect(res.status, path).toBe(200);
      expect(res.headers['cache-control'], path).toBe('no-cache');
      expect(res.headers.etag, path).toMatch(/^"[\w-]+"$/);
    }
    const head = await get(t.gateway.baseUrl, '/docs', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.body.length).toBe(0);
  });

  it('answers 404, never 500 or another file, for asset addresses that name no asset', async () => {
    for (const path of ['/dashboard/assets/%E0%A4%A', '/dashboard/assets/..%2Findex.html', '/dashboard/assets/%2e%2e/%2e%2e/package.json', '/dashboard/assets/nothing.js', '/dashboard/assets/']) {
      const res = await get(t.gateway.baseUrl, path);
      expect(res.status, path).toBe(404);
      expect(res.body.toString(), path).toBe('Not found\n');
    }
    // The app's own routes still get the page.
    expect((await get(t.gateway.baseUrl, '/dashboard/payments/abc')).body.toString()).toContain('<div id="root">');
  });

  it('chooses by Accept-Encoding with q-values', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0')).toBe('identity');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('identity')).toBe('identity');
    expect(chooseEncoding(undefined)).toBe('identity');
  });
});

describe('favicon', () => {
  it('answers /favicon.ico and /favicon.svg with an image, compressed on request; the pages link to it', async () => {
    for (const path of ['/favicon.ico', '/favicon.svg']) {
      const res = await get(t.gateway.baseUrl, path, { 'accept-encoding': 'gzip' });
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type']).toBe('image/svg+xml');
      expect(decode(res).toString()).toMatch(/^<svg /);
    }
    for (const path of ['/dashboard/', '/docs']) {
      expect((await get(t.gateway.baseUrl, path)).body.toString(), path).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml"');
    }
  });
});

describe('security headers', () => {
  const csp = (r: Raw) => String(r.headers['content-security-policy']);

  it.each(['/docs', '/openapi.json', '/graphql', '/dashboard/', '/healthz', '/favicon.ico', '/nowhere', '/api/v1/retrieve-bin', '/checkout/order/nothing'])(
    '%s: nosniff, no framing, no Referer, a CSP, no HSTS over http',
    async (path) => {
      const res = await get(t.gateway.baseUrl, path, path === '/graphql' ? HTML : {});
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(csp(res)).toContain("frame-ancestors 'none'");
      expect(res.headers['strict-transport-security']).toBeUndefined();
    },
  );

  it('gives each page a policy that fits it', async () => {
    const base = t.gateway.baseUrl;
    const host = new URL(base).host;
    expect(csp(await get(base, '/openapi.json'))).toMatch(/^default-src 'none';/);
    const docs = csp(await get(base, '/docs'));
    expect(docs).toContain("script-src 'self';");
    expect(docs).not.toContain('unsafe-eval');
    const dashboard = csp(await get(base, '/dashboard/'));
    // Only this gateway's own WebSocket origin, not any ws: host.
    expect(dashboard).toContain(`connect-src 'self' ws://${host};`);
    expect(dashboard).not.toMatch(/ws: |wss: /);
    const graphiql = await get(base, '/graphql', HTML);
    const hashes = [...csp(graphiql).matchAll(/'sha256-[\w+/=]+'/g)];
    // Yoga's script and the gateway's own fix-up of GraphiQL's tab list (http/graphiql.ts), each by its hash.
    expect(hashes).toHaveLength(2);
    expect(csp(graphiql)).not.toContain("script-src 'unsafe-inline'");
  });
});

describe('HSTS', { timeout: 60_000 }, () => {
  const gateways: TestGateway[] = [];
  afterAll(() => Promise.all(gateways.map((g) => g.stop())));

  it('TRUST_PROXY is off unless set to a yes; anything else stops the start', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(() => loadConfig({ TRUST_PROXY: 'maybe' })).toThrow(/TRUST_PROXY/);
  });

  it('is sent when BASE_URL is https, and behind a trusted proxy that says https', async () => {
    const https = await startTestGateway({ env: { BASE_URL: 'https://pay.example.com' } });
    gateways.push(https);
    const local = `http://127.0.0.1:${https.gateway.port}`;
    const res = await get(local, '/healthz');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(String((await get(local, '/dashboard/')).headers['content-security-policy'])).toContain("connect-src 'self' wss://pay.example.com;");

    const proxied = await startTestGateway({ env: { TRUST_PROXY: 'true' } });
    gateways.push(proxied);
    const behind = `http://127.0.0.1:${proxied.gateway.port}`;
    expect((await get(behind, '/healthz', { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toBe('max-age=31536000');
    expect((await get(behind, '/healthz', { 'x-forwarded-proto': 'http' })).headers['strict-transport-security']).toBeUndefined();
    expect((await get(behind, '/healthz')).headers['strict-transport-security']).toBeUndefined();
    // Without TRUST_PROXY anyone could send the header: it is not believed.
    expect((await get(t.gateway.baseUrl, '/healthz', { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toBeUndefined();
  });
});
