// One node:http server: REST under /api, GraphQL and GraphiQL at /graphql, the dashboard under
// /dashboard/, GET /healthz.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Services } from './domain/services.ts';
import type { Logger } from './logger.ts';
import { schema } from './graphql/schema.ts';
import { attachWebSocket, createGraphQLServer } from './graphql/yoga.ts';
import type { LiveEvents } from './graphql/live.ts';
import { createRestHandler } from './rest/handler.ts';
import { createCheckoutRouter } from './checkout/router.ts';
import { createDashboardHandler } from './dashboard/static.ts';
import type { RateLimits } from './rest/rate-limit.ts';

export interface AppOptions {
  services: Services;
  masterKey: Buffer;
  logger: Logger;
  /** Health: true once the whole start has completed and until stop begins, while the database and the job runner are up. */
  isHealthy: () => Promise<boolean>;
  live?: LiveEvents;
  rateLimits?: RateLimits;
}

export interface App {
  server: http.Server;
  listen(port: number, host: string): Promise<number>;
  close(): Promise<void>;
}

export function createApp(opts: AppOptions): App {
  const yoga = createGraphQLServer(schema, opts.services, opts.live);
  const checkout = createCheckoutRouter(opts.services);
  const dashboard = createDashboardHandler();
  const rest = createRestHandler({ schema, services: opts.services, masterKey: opts.masterKey, logger: opts.logger, rateLimits: opts.rateLimits });

  const server = http.createServer(async (req, res) => {
    try {
      if (await rest(req, res)) return;
      if (await checkout(req, res)) return;
      if (await dashboard(req, res)) return;
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/healthz') {
        const healthy = await opts.isHealthy().catch(() => false);
        res.writeHead(healthy ? 200 : 503, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ status: healthy ? 'ok' : 'unavailable' }));
        return;
      }
      if (path === '/graphql' || path?.startsWith('/graphql/')) return void (await yoga.requestListener(req, res)); // handles and sends (handleNodeRequestAndResponse only returns the Response)
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ result: { successful: false, message: 'Not found' } }));
    } catch (err) {
      opts.logger.error('unhandled request error', { error: (err as Error).message, url: req.url?.split('?')[0] });
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ result: { successful: false, message: 'Beklenmeyen bir hata oluştu.' } }));
    }
  });
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
