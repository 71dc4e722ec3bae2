// GET /openapi.json (the document built from the route table) and GET /docs, Swagger UI served
// from the swagger-ui-dist package in node_modules: the page works offline, no CDN. Swagger's
// files sit under its version (/docs/<version>/…) so they can be cached for good; every answer is
// compressed once and kept (static-body.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { FAVICON_PATH } from './favicon.ts';
import { bodyCache, compressBody, IMMUTABLE, REVALIDATE, sendBody } from './static-body.ts';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
};

const require = createRequire(import.meta.url);
const assetDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const VERSION = (require('swagger-ui-dist/package.json') as { version: string }).version;
const ASSET_PREFIX = `/docs/${VERSION}/`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Payment gateway API reference</title>
<link rel="stylesheet" href="${ASSET_PREFIX}swagger-ui.css">
<link rel="stylesheet" href="/docs/docs.css">
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
</head>
<body>
<main>
<h1 class="docs-title">Payment gateway API reference</h1>
<form id="signing" class="docs-signing" autocomplete="off">
<p id="signing-help">To use <strong>Try it out</strong>, type your workspace's API key and secret. This page keeps them in its memory only (not in storage, not in the address: a reload forgets them) and never sends the secret: it signs each request here, in the timestamp form.</p>
<label for="signing-key">API key</label> <input id="signing-key" name="key" spellcheck="false" aria-describedby="signing-help">
<label for="signing-secret">API secret</label> <input id="signing-secret" name="secret" type="password" spellcheck="false" aria-describedby="signing-help">
<button type="reset">Forget</button>
</form>
<p id="no-signing" class="docs-signing" hidden>Try it out needs this page over https (or on localhost) to sign requests in the browser; call the API from your code or the README's shell examples instead.</p>
<div id="api"></div>
</main>
<script src="${ASSET_PREFIX}swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>`;

// A file rather than an inline script, so the page's Content-Security-Policy allows no inline script.
// Every call needs an HMAC signature, which Swagger UI cannot make: its request interceptor signs
// each request with the key and secret typed into the page, held in two variables of this script.
// Without Web Crypto (no secure context) there is no way to sign, so no Try it out is offered.
const INIT = `(function () {
  var canSign = !!(window.crypto && window.crypto.subtle && window.TextEncoder);
  var form = document.getElementById('signing');
  if (!canSign) { form.hidden = true; document.getElementById('no-signing').hidden = false; }
  function hex(buffer) { return Array.prototype.map.call(new Uint8Array(buffer), function (b) { return b.toString(16).padStart(2, '0'); }).join(''); }
  async function sign(secret, text) {
    var enc = new TextEncoder();
    var key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return hex(await crypto.subtle.sign('HMAC', key, enc.encode(text)));
  }
  async function signed(req) {
    var apiKey = form.elements.key.value.trim();
    var secret = form.elements.secret.value;
    if (!apiKey || !secret || req.url.indexOf('/api/') < 0) return req;
    var ts = String(Math.floor(Date.now() / 1000));
    var body = typeof req.body === 'string' ? req.body : '';
    req.headers['X-Api-Key'] = apiKey;
    req.headers['X-Timestamp'] = ts;
    req.headers['X-Signature'] = await sign(secret, ts + '\\nPOST\\n' + new URL(req.url, location.href).pathname + '\\n' + body);
    return req;
  }
  // Swagger UI's markup, made accessible where its own is not: a name for the servers list, a
  // keyboard stop for scrolling code, and no link inside an operation's summary button.
  function mend(root) {
    root.querySelectorAll('select#servers:not([aria-label])').forEach(function (el) { el.setAttribute('aria-label', 'Server'); });
    root.querySelectorAll('.highlight-code > .microlight:not([tabindex])').forEach(function (el) { el.setAttribute('tabindex', '0'); });
    root.querySelectorAll('.opblock-summary-control a[href], .opblock-summary-control button').forEach(function (el) {
      el.setAttribute('tabindex', '-1');
      el.removeAttribute('href');
    });
  }
  new MutationObserver(function () { mend(document); }).observe(document.getElementById('api'), { childList: true, subtree: true });
  window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#api', deepLinking: true, validatorUrl: 'none',
    presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout',
    supportedSubmitMethods: canSign ? ['post'] : [], requestInterceptor: signed });
})();`;

// Swagger UI's colours where they miss WCAG AA contrast (4.5:1), and the page's own parts.
const CSS = `body{margin:0}main{max-width:1460px;margin:0 auto;padding:0 20px}
.docs-title{font:700 1.6rem/1.3 sans-serif;color:#3b4151;margin:1.2rem 0 .6rem}
.docs-signing{font:14px/1.5 sans-serif;color:#3b4151;background:#f3f6f9;border:1px solid #c9d3dc;border-radius:4px;padding:.75rem 1rem;margin:.5rem 0}
.docs-signing label{font-weight:600;margin-right:.25rem}.docs-signing input{font:inherit;padding:.25rem .4rem;margin-right:1rem;min-width:16rem}
.swagger-ui .opblock.opblock-post .opblock-summary-method{background:#17704a}
.swagger-ui .opblock.opblock-post{border-color:#17704a}
.swagger-ui .btn.authorize{color:#17704a;border-color:#17704a}.swagger-ui .btn.authorize svg{fill:#17704a}
.swagger-ui .info .title small{background:#4d5461}.swagger-ui .info .title small.version-stamp{background:#3d6b00}
.swagger-ui .info .base-url,.swagger-ui .info a,.swagger-ui .info .link,.swagger-ui a.nostyle,.swagger-ui .url{color:#1a5fb4}
.swagger-ui .parameter__in,.swagger-ui .parameter__type,.swagger-ui .prop-format{color:#4d5461}
.swagger-ui .json-schema-2020-12-expand-deep-button{color:#4d5461}
.swagger-ui .json-schema-2020-12-keyword__name--secondary,.swagger-ui .json-schema-2020-12-keyword__value--secondary{color:#4d5461}
.swagger-ui .json-schema-2020-12__attribute--primary{color:#1a5fb4}.swagger-ui .json-schema-2020-12__attribute--muted{color:#4d5461}`;

/** Answers GET /openapi.json and /docs[/asset]; false for any other request. */
export function createApiDocs(document: unknown) {
  const json = JSON.stringify(document);
  const bodies = bodyCache<string>();
  const fixed: Record<string, () => Promise<Parameters<typeof sendBody>[2]>> = {
    '/openapi.json': () => bodies('/openapi.json', () => compressBody('application/json; charset=utf-8', json)),
    '/docs': () => bodies('/docs', () => compressBody('text/html; charset=utf-8', PAGE)),
    '/docs/': () => bodies('/docs', () => compressBody('text/html; charset=utf-8', PAGE)),
    '/docs/init.js': () => bodies('/docs/init.js', () => compressBody('text/javascript; charset=utf-8', INIT)),
    '/docs/docs.css': () => bodies('/docs/docs.css', () => compressBody('text/css; charset=utf-8', CSS)),
  };
  return async function handleApiDocs(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = (req.url ?? '/').split('?')[0]!;
    if (Object.hasOwn(fixed, url)) return sendBody(req, res, await fixed[url]!(), REVALIDATE), true;
    const name = url.startsWith(ASSET_PREFIX) ? url.slice(ASSET_PREFIX.length) : '';
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!type) return false;
    sendBody(req, res, await bodies(name, async () => compressBody(type, await readFile(path.join(assetDir, name)))), IMMUTABLE);
    return true;
  };
}
