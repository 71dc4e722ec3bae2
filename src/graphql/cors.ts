// CORS on /graphql: only the gateway's own origin (BASE_URL) and CORS_ORIGINS may call it from a
// browser. Yoga's default reflects any Origin with credentials allowed. Access tokens travel in the
// Authorization header, never in cookies, so no origin is told credentials are allowed; a foreign
// origin gets no CORS header at all and the browser keeps the answer from its page.
import type { CORSOptions, Plugin } from 'graphql-yoga';

const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'Accept-Language', 'X-Request-Id'];

/** The origins allowed: BASE_URL's and the configured ones. */
export function allowedOrigins(baseUrl: string, configured: readonly string[]): ReadonlySet<string> {
  return new Set([new URL(baseUrl).origin, ...configured]);
}

/** Yoga's `cors` option: the caller's origin echoed only when it is allowed, without credentials. */
export function corsFor(allowed: ReadonlySet<string>): (request: Request) => CORSOptions | false {
  return (request) => {
    const origin = request.headers.get('origin');
    if (!origin || !allowed.has(origin)) return false;
    return { origin, credentials: false, methods: ['GET', 'POST', 'OPTIONS'], allowedHeaders: ALLOWED_HEADERS, maxAge: 600 };
  };
}

/** The answer depends on Origin: caches must keep one per origin. */
export function varyOnOrigin(): Plugin {
  return {
    onResponse({ response }) {
      const vary = response.headers.get('vary');
      if (!vary?.split(',').some((v) => v.trim().toLowerCase() === 'origin')) response.headers.set('Vary', vary ? `${vary}, Origin` : 'Origin');
    },
  };
}
