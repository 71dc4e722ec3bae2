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
<title>Payment gateway API reference</title>
<link rel="stylesheet" href="${ASSET_PREFIX}swagger-ui.css">
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
</head>
<body>
<div id="api"></div>
<script src="${ASSET_PREFIX}swagger-ui-bundle.js"></script>
<script src="${ASSET_PREFIX}swagger-ui-standalone-preset.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>`;

// A file rather than an inline script, so the page's Content-Security-Policy allows no inline script.
const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#api', deepLinking: true, validatorUrl: 'none',
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });`;

/** Answers GET /openapi.json and /docs[/asset]; false for any other request. */
export function createApiDocs(document: unknown) {
  const json = JSON.stringify(document);
  const bodies = bodyCache<string>();
  const fixed: Record<string, () => Promise<Parameters<typeof sendBody>[2]>> = {
    '/openapi.json': () => bodies('/openapi.json', () => compressBody('application/json; charset=utf-8', json)),
    '/docs': () => bodies('/docs', () => compressBody('text/html; charset=utf-8', PAGE)),
    '/docs/': () => bodies('/docs', () => compressBody('text/html; charset=utf-8', PAGE)),
    '/docs/init.js': () => bodies('/docs/init.js', () => compressBody('text/javascript; charset=utf-8', INIT)),
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
