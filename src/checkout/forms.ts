import type { IncomingMessage } from 'node:http';
import { readBody } from '../http/body.ts';

/** An urlencoded form body (at most 64 KB); card fields are read by the caller and never logged. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const raw = await readBody(req, 64 * 1024);
  return new URLSearchParams(raw ? raw.toString('utf8') : '');
}

/** An address of this gateway as a same-origin Location: its path and query (a sealed card field travels there). */
export function pathOf(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}
