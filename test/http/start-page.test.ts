// After `npm start`, the address it prints leads somewhere: the root page lists the dashboard, the
// API reference, the OpenAPI document, GraphQL, health and metrics (a page for a browser, links as
// JSON otherwise), the start prints the same addresses (test/start.test.ts checks a real start),
// and development logs read as lines while any other start keeps JSON lines.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { addressesBanner, PLACES } from '../../src/http/start-page.ts';
import { createLogger } from '../../src/logger.ts';
import { useGateway } from '../helpers/fixture.ts';

const { t } = useGateway();

describe('the root page', () => {
  it('a browser gets a page linking every place, each of which answers', async () => {
    const res = await fetch(`${t.gateway.baseUrl}/`, { headers: { Accept: 'text/html,application/xhtml+xml' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const html = await res.text();
    for (const path of ['/dashboard/', '/docs', '/openapi.json', '/graphql', '/healthz', '/metrics']) expect(html).toContain(`href="${path}"`);
    expect(html).not.toMatch(/<script/i);
    for (const place of PLACES.filter((p) => p.key !== 'metrics')) {
      expect((await fetch(`${t.gateway.baseUrl}${place.path}`, { headers: { Accept: 'text/html' } })).status, place.path).toBe(200);
    }
  });

  it('anything else gets the links as JSON', async () => {
    const res = await fetch(`${t.gateway.baseUrl}/`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ links: { dashboard: '/dashboard/', docs: '/docs', openapi: '/openapi.json', graphql: '/graphql', healthz: '/healthz', metrics: '/metrics' } });
    expect((await fetch(`${t.gateway.baseUrl}/`, { method: 'POST' })).status).toBe(404);
  });
});

describe('the start banner', () => {
  it('lists every address under the base URL, one per line', () => {
    expect(addressesBanner('http://127.0.0.1:3000').split('\n')).toEqual([
      '',
      'The gateway is ready at http://127.0.0.1:3000/',
      '  Dashboard             http://127.0.0.1:3000/dashboard/',
      '  API reference         http://127.0.0.1:3000/docs',
      '  OpenAPI document      http://127.0.0.1:3000/openapi.json',
      '  GraphQL and GraphiQL  http://127.0.0.1:3000/graphql',
      '  Health                http://127.0.0.1:3000/healthz',
      '  Metrics               http://127.0.0.1:3000/metrics',
      '',
      '',
    ]);
  });
});

describe('log lines', () => {
  it('pretty: one readable line per entry, the access line as method, operation, status and time, card data still masked', () => {
    const lines: string[] = [];
    const logger = createLogger('info', (line) => lines.push(line), 'pretty');
    logger.info('request', { method: 'POST', operation: 'retrieve-bin', status: 200, duration_ms: 12.3, request_id: 'r-1' });
    logger.warn('card seen', { note: 'paid with 4111111111111111' });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: POST retrieve-bin 200 12\.3 ms /);
    expect(lines[0]).toContain('"request_id":"r-1"');
    expect(lines[0]).not.toContain('"status"');
    expect(lines[1]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: card seen /);
    expect(lines[1]).not.toContain('4111111111111111');
    for (const line of lines) expect(() => JSON.parse(line) as unknown).toThrow();
  });

  it('json by default, in production and off a terminal; pretty only when asked or in development on a terminal', () => {
    const lines: string[] = [];
    createLogger('info', (line) => lines.push(line)).info('request', { status: 200 });
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'info', msg: 'request', status: 200 });

    const tty = process.stdout.isTTY;
    try {
      process.stdout.isTTY = true;
      expect(loadConfig({ NODE_ENV: 'development' }).logFormat).toBe('pretty');
      expect(loadConfig({ NODE_ENV: 'production' }).logFormat).toBe('json');
      expect(loadConfig({ NODE_ENV: 'development', LOG_FORMAT: 'json' }).logFormat).toBe('json');
      process.stdout.isTTY = false;
      expect(loadConfig({ NODE_ENV: 'development' }).logFormat).toBe('json');
      expect(loadConfig({ NODE_ENV: 'production', LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    } finally {
      process.stdout.isTTY = tty;
    }
  });
});
