// GraphiQL's page (GET /graphql from a browser) as Yoga renders it, sent compressed: the page is
// 9 MB of inline script and the same for every request, so it is asked of Yoga once, compressed
// once and kept. Its Content-Security-Policy allows that inline script by its hash, nothing else.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { graphiqlPolicy, type SecurityHeaders } from './security-headers.ts';
import { bodyCache, compressBody, REVALIDATE, sendBody, type StaticBody } from './static-body.ts';

/** What renders the page: Yoga's fetch handler. */
export interface PageSource {
  fetch(url: string, init: { method: string; headers: Record<string, string> }): Promise<Response> | Response;
}

type GraphiqlPage = StaticBody & { scriptHashes: string[] };

/** Yoga renders GraphiQL for a GET that accepts text/html at the endpoint (use-graphiql.js). */
const wantsGraphiql = (req: IncomingMessage, path: string) =>
  req.method === 'GET' && (path === '/graphql' || path === '/graphql/') && (req.headers.accept ?? '').includes('text/html');

/** `sha256-…` of every inline <script> of a page, for script-src. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) hashes.push(`sha256-${createHash('sha256').update(m[1]!).digest('base64')}`);
  return hashes;
}

/**
 * In production Yoga answers a browser's GET /graphql itself, per request: a sign-in page for
 * callers without a token, GraphiQL with the caller's token in its Headers pane for holders
 * (graphql/exposure.ts). The sign-in page writes that GraphiQL page into itself, so both run under
 * the sign-in page's policy, and the token makes GraphiQL's inline script differ per caller: no
 * hash can name it in advance. Inline scripts are therefore allowed on these two pages only; they
 * echo nothing a caller sent, and GraphiQL shows results as text.
 */
const PRODUCTION_INLINE = ['unsafe-inline'];

/**
 * Development: the demo workspace's dashboard token (demo-credentials.json), or null when there is
 * none. GraphiQL opened from this machine gets it in its Headers pane, so the explorer works at the
 * first visit with nothing copied from a terminal.
 */
export type DemoToken = () => string | null;

/** The header through which the page asks Yoga's renderer for its Headers pane (graphql/exposure.ts). */
export const GRAPHIQL_AUTHORIZATION = 'x-gateway-graphiql-authorization';

/**
 * A browser on this machine, reaching the gateway directly: the loopback socket and no proxy
 * between (a proxy on the same machine would make every visitor look local).
 */
const fromThisMachine = (req: IncomingMessage) =>
  /^(127\.|::1$|::ffff:127\.)/.test(req.socket.remoteAddress ?? '') && req.headers['x-forwarded-for'] === undefined && req.headers.forwarded === undefined;

export function createGraphiqlPage(yoga: PageSource, security: SecurityHeaders, production = false, demoToken: DemoToken = () => null) {
  const cache = bodyCache<string, GraphiqlPage>();
  let notHtml = false;
  const render = async (token: string | null): Promise<GraphiqlPage> => {
    const headers: Record<string, string> = { accept: 'text/html', ...(token ? { [GRAPHIQL_AUTHORIZATION]: `Bearer ${token}` } : {}) };
    const answer = await yoga.fetch('http://gateway.local/graphql', { method: 'GET', headers });
    const type = answer.headers.get('content-type') ?? '';
    const html = withPageFixes(await answer.text());
    if (answer.status !== 200 || !type.startsWith('text/html')) throw Object.assign(new Error('GraphiQL is off'), { notHtml: true });
    return { ...(await compressBody('text/html; charset=utf-8', html)), scriptHashes: inlineScriptHashes(html) };
  };
  /** Answers a browser's GET /graphql with the page; false for everything else (Yoga answers it). */
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (!wantsGraphiql(req, path)) return false;
    if (production) {
      res.setHeader('Content-Security-Policy', graphiqlPolicy(PRODUCTION_INLINE, security.wsOrigin(req)));
      return false;
    }
    if (notHtml) return false;
    const token = fromThisMachine(req) ? demoToken() : null;
    let page: GraphiqlPage;
    try {
      page = await cache(token ?? '', () => render(token));
    } catch (err) {
      if (!(err as { notHtml?: boolean }).notHtml) throw err;
      notHtml = true; // GraphiQL turned off in Yoga: its own answer stands.
      return false;
    }
    res.setHeader('Content-Security-Policy', graphiqlPolicy(page.scriptHashes, security.wsOrigin(req)));
    // The same address answers GraphQL results as JSON to other Accept headers.
    res.setHeader('Vary', 'Accept');
    // A page holding a token is for this visit only.
    sendBody(req, res, page, token ? 'no-store' : REVALIDATE);
    return true;
  };
}

/**
 * What the page gets besides Yoga's GraphiQL: at under 640 px (GraphiQL's editors and result pane
 * side by side need about that) a notice that says so above it, the explorer staying, scrollable;
 * a darker logo text (GraphiQL's misses WCAG AA contrast); and its query tabs made a valid tab
 * list (the tab role moves from the list item, which holds the close button, to the tab's own
 * button: a control may not sit inside another). The script is inline, allowed by its hash.
 */
export function withPageFixes(html: string): string {
  const added = `<style>#narrow-screen{display:none;font:15px/1.4 system-ui,sans-serif;margin:0;padding:.75rem 1rem;background:#fff4ce;color:#1f2430}
@media (max-width:640px){#narrow-screen{display:block}}.graphiql-logo,.graphiql-logo *{color:#4d5461}</style>
<p id="narrow-screen" role="note">GraphiQL needs a wider screen (at least 640 pixels): turn the phone sideways or use a computer. The API reference at <a href="/docs">/docs</a> reads well on a phone.</p>
<script>new MutationObserver(function(){document.querySelectorAll('li[role="tab"]').forEach(function(li){var b=li.querySelector('button:not(.graphiql-tab-close)');if(!b)return;li.setAttribute('role','none');b.setAttribute('role','tab');b.setAttribute('aria-selected',li.getAttribute('aria-selected')||'false');li.removeAttribute('aria-selected');});}).observe(document.documentElement,{childList:true,subtree:true,attributes:true,attributeFilter:['aria-selected']});</script>`;
  return html.replace(/<body([^>]*)>/, (m) => `${m}${added}`);
}
