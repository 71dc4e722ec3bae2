// GET /openapi.json (the document built from the route table) and GET /docs, Swagger UI served
// from the swagger-ui-dist package in node_modules: the page works offline, no CDN.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const assetDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Payment gateway API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" href="/docs/favicon-32x32.png">
</head>
<body>
<div id="api"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>`;

// A file rather than an inline script, so a strict Content-Security-Policy can stay possible.
const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#api', deepLinking: true, validatorUrl: 'none',
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });`;

/** Answers GET /openapi.json and /docs[/asset]; false for any other request. */
export function createApiDocs(document: unknown) {
  const json = JSON.stringify(document);
  return async function handleApiDocs(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = (req.url ?? '/').split('?')[0]!;
    if (url === '/openapi.json') return send(res, 'application/json; charset=utf-8', json), true;
    if (url === '/docs' || url === '/docs/') return send(res, 'text/html; charset=utf-8', PAGE), true;
    if (url === '/docs/init.js') return send(res, 'text/javascript; charset=utf-8', INIT), true;
    const name = url.startsWith('/docs/') ? url.slice('/docs/'.length) : '';
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!type) return false;
    send(res, type, await readFile(path.join(assetDir, name)));
    return true;
  };
}

function send(res: ServerResponse, type: string, body: string | Buffer): void {
  res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=300' });
  res.end(body);
}
