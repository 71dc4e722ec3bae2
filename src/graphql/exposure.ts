// What /graphql shows of itself. In production the schema is for access-token holders only:
// introspection is refused without a valid token (HTTP, SSE and WebSocket), and GraphiQL's page
// is served only to a request that carries one. A browser cannot send a header when it opens a
// page, so without one the answer is a small sign-in page: it asks for the token (or takes it once
// from the URL fragment, which never reaches the server or its logs), keeps it in the tab's
// sessionStorage, fetches GraphiQL with `Authorization: Bearer <token>` and shows it with the
// header already filled in. Development keeps introspection and GraphiQL open.
import { NoSchemaIntrospectionCustomRule } from 'graphql';
import { shouldRenderGraphiQL, type GraphiQLOptions, type Plugin } from 'graphql-yoga';
import type { Logger } from '../logger.ts';
import type { Viewer } from './context.ts';
import { GRAPHIQL_AUTHORIZATION } from '../http/graphiql.ts';

export interface GraphQLExposure {
  /** NODE_ENV=production: schema (introspection, GraphiQL) only for valid access tokens. */
  production: boolean;
  /** Browser origins besides the gateway's own allowed to call /graphql (CORS_ORIGINS). */
  corsOrigins: readonly string[];
  /** Where WebSocket problems are logged (JSON lines); without it they are not logged. */
  logger?: Logger;
  /** TRUST_PROXY: the client's address is the one X-Forwarded-For's last hop names. */
  trustProxy?: boolean;
}

/** Resolves the viewer of an HTTP request once (null: an invalid token). */
export type ViewerOf = (request: Request) => Promise<Viewer | null>;

export function holdsToken(viewer: Viewer | null): boolean {
  return viewer !== null && viewer.kind !== 'anonymous';
}

/**
 * Adds graphql-js's NoSchemaIntrospectionCustomRule for callers without a token in production.
 * HTTP requests are judged before parsing (the token lookup is async, validation is not);
 * WebSocket operations pass `schemaHidden` in their initial context (yoga.ts).
 */
export function introspectionGate(exposure: GraphQLExposure, viewerOf: ViewerOf): Plugin {
  const hidden = new WeakSet<Request>();
  return {
    async onRequestParse({ request }) {
      if (exposure.production && !holdsToken(await viewerOf(request))) hidden.add(request);
    },
    onValidate({ addValidationRule, context }) {
      const c = context as { request?: Request; schemaHidden?: boolean };
      if (c.schemaHidden === true || (c.request && hidden.has(c.request))) addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
}

/**
 * In production, a browser's GET /graphql without a valid token gets the sign-in page instead of
 * GraphiQL (Yoga's GraphiQL plugin runs first and, told `false` by graphiqlOptions, passes).
 */
export function graphiqlGate(exposure: GraphQLExposure, viewerOf: ViewerOf): Plugin {
  return {
    async onRequest({ request, endResponse, fetchAPI }) {
      if (!exposure.production || !shouldRenderGraphiQL(request)) return;
      if (holdsToken(await viewerOf(request))) return;
      const status = request.headers.has('authorization') ? 401 : 200;
      endResponse(new fetchAPI.Response(SIGN_IN_PAGE, { status, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } }));
    },
    onResponse({ request, response }) {
      // GraphiQL's page holds the caller's token in production: no cache may keep it.
      if (exposure.production && shouldRenderGraphiQL(request)) response.headers.set('Cache-Control', 'no-store');
    },
  };
}

/**
 * GraphiQL's options: false (not rendered; graphiqlGate answers instead) in production without a
 * valid token; with one, its Headers pane holds the header the page was fetched with.
 */
export function graphiqlOptions(exposure: GraphQLExposure, viewerOf: ViewerOf): (request: Request) => Promise<GraphiQLOptions | false> {
  const placeholder = JSON.stringify({ Authorization: 'Bearer <token from npm run gateway -- token create>' });
  return async (request) => {
    // Development: the page asked for the demo token's header (http/graphiql.ts), else the placeholder.
    if (!exposure.production) {
      const demo = request.headers.get(GRAPHIQL_AUTHORIZATION);
      return { title: TITLE, headers: demo ? JSON.stringify({ Authorization: demo }) : placeholder };
    }
    if (!holdsToken(await viewerOf(request))) return false;
    return { title: TITLE, headers: JSON.stringify({ Authorization: request.headers.get('authorization') }) };
  };
}

const TITLE = 'Payment gateway GraphiQL';

const SIGN_IN_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Payment gateway GraphiQL: sign in</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}input{width:100%;padding:.5rem;margin:.5rem 0}button{padding:.5rem 1rem}</style>
</head><body>
<h1>GraphiQL</h1>
<p>GraphiQL needs an access token (<code>npm run gateway -- token create --support</code>).</p>
<form id="sign-in"><label for="token">Access token</label><input id="token" type="password" autocomplete="off" required><button type="submit">Open GraphiQL</button></form>
<p id="problem" role="alert"></p>
<script type="module">
const KEY = 'gateway.graphiql.token';
async function open(token) {
  const res = await fetch(location.pathname, { headers: { Accept: 'text/html', Authorization: 'Bearer ' + token } });
  if (!res.ok) {
    sessionStorage.removeItem(KEY);
    document.getElementById('problem').textContent = 'The access token is invalid.';
    return;
  }
  sessionStorage.setItem(KEY, token);
  const html = await res.text();
  document.open();
  document.write(html);
  document.close();
}
const fromFragment = new URLSearchParams(location.hash.slice(1)).get('token');
if (fromFragment) history.replaceState(null, '', location.pathname + location.search);
const kept = fromFragment || sessionStorage.getItem(KEY);
if (kept) open(kept);
document.getElementById('sign-in').addEventListener('submit', (event) => {
  event.preventDefault();
  open(document.getElementById('token').value.trim());
});
</script>
</body></html>
`;
