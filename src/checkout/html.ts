// Server-rendered pages: every merchant- or customer-given text goes through `escape`, and every
// page carries a strict Content-Security-Policy with a per-response script nonce.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import escapeHtml from 'escape-html';
import { languageFrom, message, type Language } from '../domain/messages.ts';
import { brandBar, brandStyle, logoOrigins, type Brand } from './brand.ts';

export const escape = (value: unknown): string => escapeHtml(String(value ?? ''));

/** The shopper's language: `Accept-Language: en…` reads English, anything else Turkish. */
export const pageLanguage = (req: IncomingMessage): Language => languageFrom(req.headers['accept-language']);

const LOCALES: Readonly<Record<Language, string>> = { tr: 'tr-TR', en: 'en-GB' };

/** A moment as the shopper reads it, in the workspace's time zone. */
export function displayDateTime(at: Date, timeZone: string, lang: Language): string {
  return new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: 'long', timeStyle: 'short', timeZone }).format(at);
}

export interface Page {
  lang: Language;
  title: string;
  body: string;
  /** Inline script, run with the page's nonce. */
  script?: string;
  /** Extra CSS for this page, after the shared style (sent with the page's nonce). */
  style?: string;
  /** Origins a form on the page may post to besides this gateway. */
  formTargets?: string[];
  /** Origins the page's script may reach besides this gateway (checking the merchant's address). */
  connectTargets?: string[];
  /** The workspace's logo and colour (brand.ts); absent: the gateway's look. */
  brand?: Brand;
  /** Origins whose pages may frame this one (the workspace's embed origins); absent or empty: none. */
  frameAncestors?: readonly string[];
  status?: number;
}

const STYLE = `
  *{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1f2430}
  main{max-width:480px;margin:0 auto;padding:24px 16px}
  .card{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.08);padding:20px;margin-bottom:16px}
  h1{font-size:1.25rem;margin:0 0 12px}p{margin:8px 0}.muted{color:#667}
  button{font:inherit;padding:12px 16px;border-radius:8px;border:0;cursor:pointer;width:100%;margin-top:8px}
  .primary{background:#1f6feb;color:#fff}.secondary{background:#e6e8eb;color:#1f2430}
  .error{color:#b42318}.ok{color:#067647}
  .brand{font-size:.8rem;color:#667;text-transform:uppercase;letter-spacing:.04em;min-height:1.2em}
  label{display:block;margin-top:10px;font-size:.9rem}input,select{font:inherit;width:100%;padding:10px;border:1px solid #ccd;border-radius:8px}
  table{width:100%;border-collapse:collapse}td,th{padding:6px 4px;text-align:left;border-bottom:1px solid #eee}td.num,th.num{text-align:right}
`;

export function renderPage(res: ServerResponse, page: Page): void {
  const nonce = randomBytes(16).toString('base64');
  const sources = (extra: readonly string[] = []) => ["'self'", ...extra].join(' ');
  res.statusCode = page.status ?? 200;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  // nosniff, DENY and no-referrer come with every answer (http/security-headers.ts); the page's
  // own policy replaces the default one, for its nonce, the merchant's form target and logo, and
  // the pages the workspace lets frame it (then frame-ancestors says who, instead of DENY).
  allowFraming(res, page.frameAncestors);
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src ${sources(page.connectTargets)}; img-src ${sources([...logoOrigins(page.brand), 'data:'])}; form-action ${sources(page.formTargets)}; frame-ancestors ${frameAncestors(page.frameAncestors)}; base-uri 'none'`,
  );
  res.end(`<!doctype html>
<html lang="${page.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(page.title)}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><style nonce="${nonce}">${STYLE}${page.style ?? ''}${brandStyle(page.brand)}</style></head>
<body><main>${brandBar(page.brand, escape)}${page.body}</main>${page.script ? `<script nonce="${nonce}">${page.script}</script>` : ''}</body></html>`);
}

/** A value as a JS literal that is also safe inside an inline <script> (no `</script>` or `<!--`). */
export const scriptValue = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

/** The frame-ancestors sources of a page: the listed origins, else none. */
export const frameAncestors = (origins: readonly string[] = []): string => (origins.length > 0 ? origins.join(' ') : "'none'");

/**
 * A page the workspace lets its listed origins frame: without X-Frame-Options (DENY would refuse
 * every framing page; the page's frame-ancestors names the allowed ones instead).
 */
export function allowFraming(res: ServerResponse, origins: readonly string[] = []): void {
  if (origins.length > 0) res.removeHeader('X-Frame-Options');
}

/** A 303 on to `location`; where the workspace lets pages frame its own, the redirect may be framed by them too. */
export function seeOther(res: ServerResponse, location: string, origins: readonly string[] = []): void {
  allowFraming(res, origins);
  const headers: Record<string, string> = { Location: location, 'Cache-Control': 'no-store' };
  if (origins.length > 0) headers['Content-Security-Policy'] = `default-src 'none'; frame-ancestors ${frameAncestors(origins)}; base-uri 'none'; form-action 'none'`;
  res.writeHead(303, headers);
  res.end();
}

/** A form of hidden fields posted to `action` by its button (and at once by a page's script). */
export function postForm(post: { id: string; action: string; fields: Record<string, string> }, button: string): string {
  const inputs = Object.entries(post.fields)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('');
  return `<form id="${escape(post.id)}" method="post" action="${escape(post.action)}">${inputs}
      <button class="primary" type="submit">${escape(button)}</button></form>`;
}

/**
 * A page whose form the browser posts at once (a button without script): a bank's 3D gate, an
 * ACS's answer to the gateway.
 */
export function renderAutoPost(
  res: ServerResponse,
  lang: Language,
  post: { id: string; action: string; fields: Record<string, string>; heading: string },
  look: Pick<Page, 'brand' | 'frameAncestors'> = {},
): void {
  renderPage(res, {
    lang,
    ...look,
    title: post.heading,
    formTargets: [new URL(post.action).origin],
    body: `<div class="card"><h1>${escape(post.heading)}</h1><p class="muted">${escape(message('page_return_redirecting', lang))}</p>
      ${postForm(post, message('page_return_continue', lang))}</div>`,
    script: `document.getElementById(${JSON.stringify(post.id)}).submit();`,
  });
}

/** A short notice page (not found, expired, used…). */
export function renderNotice(res: ServerResponse, lang: Language, status: number, title: string, text: string): void {
  renderPage(res, { lang, status, title, body: `<div class="card"><h1>${escape(title)}</h1><p class="error">${escape(text)}</p></div>` });
}

/** 404 for a checkout address that names no order, subscription or link (malformed ones alike). */
export function renderCheckoutNotFound(res: ServerResponse, lang: Language): void {
  renderNotice(res, lang, 404, message('page_not_found', lang), message('page_checkout_invalid', lang));
}

/** The JSON a page's own script asks for (installment options). */
export function renderJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}
