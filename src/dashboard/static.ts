// Serves the built dashboard (dashboard/dist, made by `vite build` in postinstall) under
// /dashboard/. Unknown paths get index.html so the app's own routes survive a reload; hashed
// assets are cached for good, index.html revalidated. Each file is read and compressed once
// (http/static-body.ts); its security headers, CSP included, come from http/security-headers.ts.
import { readFile, stat } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bodyCache, compressBody, IMMUTABLE, REVALIDATE, sendBody } from '../http/static-body.ts';

export const DASHBOARD_DIST = fileURLToPath(new URL('../../dashboard/dist/', import.meta.url));
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml' };

/** Answers GET/HEAD under /dashboard; false for every other request. */
export function createDashboardHandler(dist = DASHBOARD_DIST) {
  const files = bodyCache<string>();
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> => {
    const pathname = (req.url ?? '/').split('?')[0]!;
    if (pathname !== '/dashboard' && !pathname.startsWith('/dashboard/')) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return true;
    }
    if (pathname === '/dashboard') {
      res.writeHead(301, { Location: '/dashboard/' }).end();
      return true;
    }
    const asset = pathname.startsWith('/dashboard/assets/') ? assetFile(dist, pathname.slice('/dashboard/'.length)) : null;
    if (asset === undefined) return notFound(res);
    const file = asset ?? path.join(dist, 'index.html');
    let body;
    try {
      // Keyed by modification time too: a new build replaces index.html at the same address.
      const { mtimeMs } = await stat(file);
      body = await files(`${file}@${mtimeMs}`, async () => compressBody(TYPES[path.extname(file)] ?? 'application/octet-stream', await readFile(file)));
    } catch {
      if (asset) return notFound(res);
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('The dashboard is not built: run npm install (its postinstall runs vite build).\n');
      return true;
    }
    sendBody(req, res, body, asset ? IMMUTABLE : REVALIDATE);
    return true;
  };
}

/** The file of an asset address inside dist/assets; undefined for a malformed escape or a name outside it. */
function assetFile(dist: string, relative: string): string | undefined {
  let name: string;
  try {
    name = decodeURIComponent(relative);
  } catch {
    return undefined;
  }
  const file = path.join(dist, path.normalize(name));
  return file.startsWith(path.join(dist, 'assets') + path.sep) ? file : undefined;
}

function notFound(res: http.ServerResponse): true {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('Not found\n');
  return true;
}
