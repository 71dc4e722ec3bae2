// One node:http server: REST under /api, GraphQL and GraphiQL at /graphql, the dashboard under
// /dashboard/, people's sign-in under /auth/, GET /healthz, GET /openapi.json and the API reference at /docs, /favicon.ico,
// and at / a page that lists where each of these is.
// Every answer gets its security headers first (http/security-headers.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Services } from './domain/services.ts';
import type { Logger } from './logger.ts';
import { schema } from './graphql/schema.ts';
import { attachWebSocket, createGraphQLServer } from './graphql/yoga.ts';
import type { GraphQLExposure } from './graphql/exposure.ts';
import type { LiveEvents } from './graphql/live.ts';
import { createRestHandler } from './rest/handler.ts';
import { createCheckoutRouter } from './checkout/router.ts';
import { createProviderPages } from './providers/pages.ts';
import { createDashboardHandler } from './dashboard/static.ts';
import { handleExport } from './dashboard/export.ts';
import { createSessionRoutes } from './http/people-sessions.ts';
import type { RateLimitSettings } from './rest/rate-limit.ts';
import type { AdmissionMemory } from './rest/admission-memory.ts';
import { requestIdFrom, runInContext, type RequestContext } from './observability/context.ts';
import type { Metrics } from './observability/metrics.ts';
import { noTracing } from './observability/tracing.ts';
import type { Tracing } from './observability/tracing-shape.ts';
import { buildOpenApi } from './rest/openapi/document.ts';
import { createApiDocs } from './http/api-docs.ts';
import { handleFavicon } from './http/favicon.ts';
import { handleStartPage } from './http/start-page.ts';
import { createGraphiqlPage, type DemoToken } from './http/graphiql.ts';
import { securityHeaders, type SecuritySettings } from './http/security-headers.ts';
import { isDatabaseBusy } from './db/busy.ts';
import { answerUnavailable, logUnreadableSecret } from './http/unavailable.ts';
import { unreadableSecretIn } from './domain/secrets.ts';
import { languageFrom } from './domain/messages.ts';
import { simpleError } from './rest/errors.ts';

export interface AppOptions {
  services: Services;
  masterKey: Buffer;
  logger: Logger;
  /** Health: true once the whole start has completed and until stop begins, while the database and the job runner are up. */
  isHealthy: () => Promise<boolean>;
  live?: LiveEvents;
  rateLimits?: RateLimitSettings;
  /** Remembered admissions of REST calls; without it every call reads its admission. */
  admission?: AdmissionMemory;
  metrics?: Metrics;
  /** What /graphql shows of itself (production: schema for token holders only) and to which origins. */
  graphql?: GraphQLExposure;
  /** A span per request when an OTLP endpoint is configured (observability/tracing.ts). */
  tracing?: Tracing;
  /** Development: the demo workspace's token for GraphiQL opened on this machine (http/graphiql.ts). */
  demoToken?: DemoToken;
  /** BASE_URL and TRUST_PROXY: HSTS and the pages' WebSocket origin (http/security-headers.ts). */
  security?: SecuritySettings;
}

export interface App {
  server: http.Server;
  listen(port: number, host: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * The operation label of a request, from a fixed set so that metrics stay bounded: the REST
 * operation (set again by the REST shim once it knows the route), else the area of the server.
 */
function operationOf(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0] ?? '/';
  if (path.startsWith('/api/')) return 'rest';
  if (path === '/graphql' || path.startsWith('/graphql/')) return 'graphql';
  if (path.startsWith('/checkout/')) {
    const page = path.split('/')[2] ?? '';
    return ['3ds', 'order', 'link', 'subscription'].includes(page) ? `checkout.${page}` : 'checkout';
  }
  if (path === '/healthz' || path === '/metrics') return path.slice(1);
  return 'other';
}

export function createApp(opts: AppOptions): App {
  const yoga = createGraphQLServer(schema, opts.services, opts.live, opts.graphql);
  const checkout = createCheckoutRouter(opts.services, { trustProxy: opts.security?.trustProxy ?? false });
  const providerPages = createProviderPages(opts.services.providers);
  const dashboard = createDashboardHandler();
  const sessionRoutes = createSessionRoutes(opts.services, { trustProxy: opts.security?.trustProxy ?? false });
  const rest = createRestHandler({ schema, services: opts.services, masterKey: opts.masterKey, logger: opts.logger, rateLimits: opts.rateLimits, admission: opts.admission });

  const apiDocs = createApiDocs(buildOpenApi(schema));
  const tracing = opts.tracing ?? noTracing;
  const security = securityHeaders(opts.security ?? { trustProxy: false });
  const graphiql = createGraphiqlPage(yoga, security, opts.graphql?.production ?? false, opts.demoToken);

  const server = http.createServer((req, res) => {
    // Every answer carries the request id; every line logged for the request (and the jobs and
    // webhook events it causes) carries it too; one access line and one metrics sample at the end.
    const started = process.hrtime.bigint();
    const requestId = requestIdFrom(req.headers['x-request-id']);
    const ctx: RequestContext = { fields: { request_id: requestId }, logger: opts.logger, operation: operationOf(req.url) };
    res.setHeader('X-Request-Id', requestId);
    security.apply(req, res);
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const status = res.headersSent ? res.statusCode : 499; // 499: the client left before the answer
      opts.metrics?.observeRequest(ctx.operation ?? 'other', status, seconds);
      runInContext(ctx, () =>
        opts.logger.info('request', { method: req.method, operation: ctx.operation, workspace: ctx.workspace, status, duration_ms: Math.round(seconds * 1e4) / 10 }),
      );
    });
    void runInContext(ctx, () => tracing.request(req, res, ctx, () => handle(req, res)));
  });

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    try {
      if (await rest(req, res)) return;
      if (await apiDocs(req, res)) return;
      if (await checkout(req, res)) return;
      if (await providerPages(req, res)) return;
      if (await handleExport(opts.services, req, res)) return;
      if (await sessionRoutes(req, res)) return;
      if (await dashboard(req, res)) return;
      if (await handleFavicon(req, res)) return;
      if (handleStartPage(req, res)) return;
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/healthz') {
        const healthy = await opts.isHealthy().catch(() => false);
        res.writeHead(healthy ? 200 : 503, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ status: healthy ? 'ok' : 'unavailable' }));
        return;
      }
      if (path === '/metrics' && opts.metrics && req.method === 'GET') {
        const text = await opts.metrics.text();
        res.writeHead(200, { 'Content-Type': opts.metrics.registry.contentType });
        res.end(text);
        return;
      }
      if (await graphiql(req, res)) return;
      if (path === '/graphql' || path?.startsWith('/graphql/')) return void (await yoga.requestListener(req, res)); // handles and sends (handleNodeRequestAndResponse only returns the Response)
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(simpleError('not_found', languageFrom(req.headers['accept-language']))));
    } catch (err) {
      if (isDatabaseBusy(err)) {
        opts.logger.warn('database unavailable', { error: String((err as Error).message ?? err).trim().split('\n').pop(), url: req.url?.split('?')[0] });
        return answerUnavailable(req, res);
      }
      const unreadable = unreadableSecretIn(err);
      if (unreadable) {
        logUnreadableSecret(opts.logger, unreadable, { url: req.url?.split('?')[0] });
        return answerUnavailable(req, res, 'service_unavailable');
      }
      opts.logger.error('unhandled request error', { error: (err as Error).message, url: req.url?.split('?')[0] });
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(simpleError('internal_error', languageFrom(req.headers['accept-language']))));
    }
  };
  server.keepAliveTimeout = 5_000;
  const wss = attachWebSocket(server, yoga);

  return {
    server,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
      }),
    close: () =>
      new Promise((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
