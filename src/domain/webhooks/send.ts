// One HTTP attempt: POST, no redirect followed (3xx is a failure), a hard timeout, and in
// production a DNS lookup that refuses private destinations at connect time (DNS rebinding).
// Connections are kept alive and reused per destination (one pool per host and port in each
// agent): a new TCP (and TLS) connection per attempt was most of an attempt's cost. A reused
// connection goes to an address that passed the connect-time check when it was opened.
import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isBlockedAddress } from './outbound.ts';

export interface AttemptResult {
  httpStatus: number | null;
  responseExcerpt: string | null;
  error: string | null;
  durationMs: number;
}

const EXCERPT_BYTES = 1024;

/**
 * An idle connection is closed after this long, before a receiver's own idle limit is likely to
 * close it under a request (Node's HTTP server closes after 5 s).
 */
const IDLE_SOCKET_MS = 4_000;
const agents = {
  'http:': new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' }),
};

export function postWebhook(url: string, headers: Record<string, string>, body: string, opts: { timeoutMs: number; production: boolean }): Promise<AttemptResult> {
  const started = Date.now();
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const done = (r: Omit<AttemptResult, 'durationMs'>) => resolve({ ...r, durationMs: Date.now() - started });
    const req = transport.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
        timeout: opts.timeoutMs,
        agent: target.protocol === 'https:' ? agents['https:'] : agents['http:'],
        lookup: opts.production ? safeLookup : undefined,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(c);
          size += c.length;
        });
        res.on('end', () => done({ httpStatus: res.statusCode ?? null, responseExcerpt: Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_BYTES), error: null }));
        res.on('error', (err) => done({ httpStatus: res.statusCode ?? null, responseExcerpt: null, error: err.message }));
        // Closed without 'end' or 'error' (peer went away mid-answer): never leave the attempt hanging.
        res.on('close', () => done({ httpStatus: res.statusCode ?? null, responseExcerpt: null, error: 'connection closed before the answer ended' }));
      },
    );
    // The whole attempt (connect + answer) must finish within the timeout, not just idle gaps.
    const timer = setTimeout(() => req.destroy(new Error(`timeout after ${opts.timeoutMs} ms`)), opts.timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('timeout', () => req.destroy(new Error(`timeout after ${opts.timeoutMs} ms`)));
    req.on('error', (err) => done({ httpStatus: null, responseExcerpt: null, error: err.message }));
    req.end(body);
  });
}

function safeLookup(
  hostname: string,
  options: object,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    if (list.some((a) => isBlockedAddress(a.address))) return callback(Object.assign(new Error(`destination ${hostname} resolves to a private address`), { code: 'EBLOCKED' }), []);
    const all = (options as { all?: boolean }).all;
    if (all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
}
