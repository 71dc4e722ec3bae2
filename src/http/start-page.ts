// Where everything is: the gateway's root page (GET /) and the lines the start prints list the same
// addresses, so someone who just ran `npm start` and opened the address it printed finds the
// dashboard, the API reference and GraphiQL. A browser gets a page; anything else gets the links as
// JSON. No secret and no data: the demo credentials file is named, never read.
import type { IncomingMessage, ServerResponse } from 'node:http';
import escapeHtml from 'escape-html';
import { FAVICON_PATH } from './favicon.ts';

interface Place {
  key: string;
  path: string;
  title: string;
  what: string;
}

export const PLACES: readonly Place[] = [
  { key: 'dashboard', path: '/dashboard/', title: 'Dashboard', what: "The merchant's screens: payments, refunds, links, webhooks, settings. For the demo workspace, open dashboard_url from demo-credentials.json in the data folder (.data) to set the owner's password." },
  { key: 'docs', path: '/docs', title: 'API reference', what: 'Every REST operation, its fields and an example body (Swagger UI); the same as the OpenAPI document.' },
  { key: 'openapi', path: '/openapi.json', title: 'OpenAPI document', what: 'OpenAPI 3.1, for code generators and API tools.' },
  { key: 'graphql', path: '/graphql', title: 'GraphQL and GraphiQL', what: 'The GraphQL API; in a browser, the GraphiQL explorer.' },
  { key: 'healthz', path: '/healthz', title: 'Health', what: '200 while the gateway serves, 503 otherwise.' },
  { key: 'metrics', path: '/metrics', title: 'Metrics', what: 'Prometheus metrics (keep it on a private network).' },
];

/** The lines the start prints once every worker listens. */
export function addressesBanner(baseUrl: string): string {
  const width = Math.max(...PLACES.map((p) => p.title.length));
  return ['', `The gateway is ready at ${baseUrl}/`, ...PLACES.map((p) => `  ${p.title.padEnd(width)}  ${baseUrl}${p.path}`), ''].join('\n') + '\n';
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:44rem;padding:1.5rem;color:#1f2430}
h1{font-size:1.5rem}a{color:#0b57d0}dt{font-weight:600;margin-top:1rem}dd{margin:0}code{font-size:.9em}`;

/** A style-only policy: the page has no script, loads only its icon and frames nowhere. */
export const START_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function page(): string {
  const items = PLACES.map((p) => `<dt><a href="${p.path}">${escapeHtml(p.title)}</a> <code>${p.path}</code></dt><dd>${escapeHtml(p.what)}</dd>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Payment gateway</title><link rel="icon" href="${FAVICON_PATH}"><style>${STYLE}</style></head>
<body><main><h1>Payment gateway</h1>
<p>REST calls go to <code>POST /api/{team}/gateway/&lt;operation&gt;</code>, signed with an API key (the API reference says how).</p>
<dl>
${items}
</dl></main></body></html>
`;
}

const wantsHtml = (req: IncomingMessage) => /text\/html/.test(req.headers.accept ?? '');

/** Answers GET/HEAD /; false for anything else. */
export function handleStartPage(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if ((req.url ?? '/').split('?')[0] !== '/') return false;
  if (wantsHtml(req)) {
    res.setHeader('Content-Security-Policy', START_PAGE_POLICY);
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : page());
    return true;
  }
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(req.method === 'HEAD' ? undefined : JSON.stringify({ links: Object.fromEntries(PLACES.map((p) => [p.key, p.path])) }));
  return true;
}
