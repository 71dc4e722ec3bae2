// The security headers of every answer the gateway sends, set in one place (app.ts calls it first
// for each request): no sniffing, no framing, no Referer, HSTS when served over https, and a
// Content-Security-Policy fitting the area of the address. Pages that need more set their own:
// the checkout pages carry a per-response nonce (checkout/html.ts), GraphiQL the hash of Yoga's
// inline script (graphiql.ts, through graphiqlPolicy).
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface SecuritySettings {
  /** BASE_URL when set: its scheme turns HSTS on and its host is the dashboard's WebSocket origin. */
  publicUrl?: string;
  /** TRUST_PROXY: a proxy in front says (X-Forwarded-Proto: https) that the browser used https. */
  trustProxy: boolean;
}

const HSTS = 'max-age=31536000';

const directives = (d: Record<string, string>) =>
  Object.entries(d)
    .map(([k, v]) => `${k} ${v}`)
    .join('; ');

/** Nothing loads, nothing frames: JSON, text and redirects. */
const API = directives({ 'default-src': "'none'", 'frame-ancestors': "'none'", 'base-uri': "'none'", 'form-action': "'none'" });

/** Swagger UI: its files from /docs, the document from /openapi.json; it sets style attributes. */
const DOCS = directives({
  'default-src': "'none'",
  'script-src': "'self'",
  'style-src': "'self' 'unsafe-inline'",
  'img-src': "'self' data:",
  'font-src': "'self' data:",
  'connect-src': "'self'",
  'frame-ancestors': "'none'",
  'base-uri': "'none'",
  'form-action': "'none'",
});

/** The dashboard (Vite's build): its own files; GraphQL over HTTP and WebSocket to this gateway only. */
const dashboard = (wsOrigin: string) =>
  directives({
    'default-src': "'self'",
    'connect-src': `'self' ${wsOrigin}`,
    'img-src': "'self' data:",
    'style-src': "'self'",
    'script-src': "'self'",
    'frame-ancestors': "'none'",
    'base-uri': "'none'",
    'form-action': "'none'",
  });

/**
 * GraphiQL as Yoga renders it: one inline script (allowed by its hash), an inline style sheet and
 * Monaco's inline styles, its editor workers from blob: URLs, a data: favicon and fonts.
 */
export const graphiqlPolicy = (scriptHashes: string[], wsOrigin: string) =>
  directives({
    'default-src': "'none'",
    'script-src': scriptHashes.map((h) => `'${h}'`).join(' ') || "'none'",
    'worker-src': 'blob:',
    'style-src': "'self' 'unsafe-inline'",
    'img-src': "'self' data:",
    'font-src': "'self' data:",
    'connect-src': `'self' ${wsOrigin}`,
    'frame-ancestors': "'none'",
    'base-uri': "'none'",
    'form-action': "'none'",
  });

export function securityHeaders(settings: SecuritySettings) {
  const httpsBase = settings.publicUrl?.startsWith('https://') ?? false;

  /** Over https: what the browser used, as far as this gateway can tell. */
  const overHttps = (req: IncomingMessage): boolean => {
    if (httpsBase) return true;
    if (!settings.trustProxy) return false;
    const proto = req.headers['x-forwarded-proto'];
    return (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0]?.trim().toLowerCase() === 'https';
  };

  /** The gateway's own WebSocket origin: from BASE_URL, else the address the browser used. */
  const wsOrigin = (req: IncomingMessage): string => {
    if (settings.publicUrl) return new URL(settings.publicUrl).origin.replace(/^http/, 'ws');
    const host = req.headers.host && /^[\w.:[\]-]+$/.test(req.headers.host) ? req.headers.host : null;
    return host ? `${overHttps(req) ? 'wss' : 'ws'}://${host}` : '';
  };

  return {
    wsOrigin,
    /** Sets the headers every answer carries; a page may replace the CSP with its own. */
    apply(req: IncomingMessage, res: ServerResponse): void {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('X-Frame-Options', 'DENY');
      res.setHeader('Referrer-Policy', 'no-referrer');
      if (overHttps(req)) res.setHeader('Strict-Transport-Security', HSTS);
      const path = (req.url ?? '/').split('?')[0]!;
      const policy = path === '/docs' || path.startsWith('/docs/') ? DOCS : path === '/dashboard' || path.startsWith('/dashboard/') ? dashboard(wsOrigin(req)) : API;
      res.setHeader('Content-Security-Policy', policy);
    },
  };
}

export type SecurityHeaders = ReturnType<typeof securityHeaders>;
