// The gateway's icon, at /favicon.ico (where browsers look without being told) and /favicon.svg
// (what the pages link to): a card on a blue square, as SVG, so one small file serves every size.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyCache, compressBody, sendBody } from './static-body.ts';

export const FAVICON_PATH = '/favicon.svg';

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
<rect width="64" height="64" rx="14" fill="#1f6feb"/>
<rect x="10" y="18" width="44" height="30" rx="5" fill="#fff"/>
<rect x="10" y="24" width="44" height="6" fill="#1f2430"/>
<rect x="16" y="37" width="14" height="4" rx="2" fill="#1f6feb"/>
</svg>
`;

const cache = bodyCache<'icon'>();

/** Answers GET/HEAD /favicon.ico and /favicon.svg; false for anything else. */
export async function handleFavicon(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const path = (req.url ?? '/').split('?')[0];
  if (path !== '/favicon.ico' && path !== FAVICON_PATH) return false;
  // A day, not for good: the address stays the same when the icon changes.
  sendBody(req, res, await cache('icon', () => compressBody('image/svg+xml', SVG)), 'public, max-age=86400');
  return true;
}
