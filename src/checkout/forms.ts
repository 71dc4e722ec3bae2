import type { IncomingMessage } from 'node:http';
import { readBody } from '../http/body.ts';

/** An urlencoded form body (at most 64 KB); card fields are read by the caller and never logged. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const raw = await readBody(req, 64 * 1024);
  return new URLSearchParams(raw ? raw.toString('utf8') : '');
}

/**
 * A bank's callback form, decoded in the charset it was posted in. A browser posts a form in its
 * page's charset; Turkish banks' 3D pages are often ISO-8859-9 (EST names it in the form's own
 * `encoding` field), and reading such a body as UTF-8 would alter İ, ş, ğ before the bank's hash
 * over the fields is checked. The charset comes from the Content-Type, else from `encoding`, else
 * UTF-8; one Node cannot decode reads as UTF-8.
 */
export async function readCallbackForm(req: IncomingMessage): Promise<Record<string, string>> {
  const raw = (await readBody(req, 64 * 1024)) ?? Buffer.alloc(0);
  const pairs = raw.toString('latin1').split('&').filter(Boolean).map((pair) => {
    const at = pair.indexOf('=');
    return [at < 0 ? pair : pair.slice(0, at), at < 0 ? '' : pair.slice(at + 1)] as const;
  });
  const declared = /charset=([^;\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1] ?? pairs.find(([k]) => k === 'encoding')?.[1];
  const decoder = decoderFor(declared ?? 'utf-8');
  const decode = (text: string) => decoder.decode(percentBytes(text.replace(/\+/g, ' ')));
  return Object.fromEntries(pairs.map(([k, v]) => [decode(k), decode(v)]));
}

function decoderFor(label: string): TextDecoder {
  try {
    return new TextDecoder(decodeURIComponent(label));
  } catch {
    return new TextDecoder('utf-8');
  }
}

/** The bytes a percent-encoded text stands for (a malformed escape is kept as it was written). */
function percentBytes(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '%' && /^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(text.charCodeAt(i) & 0xff);
  }
  return Buffer.from(bytes);
}

/** An address of this gateway as a same-origin Location: its path and query (a sealed card field travels there). */
export function pathOf(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}
