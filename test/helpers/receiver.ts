// A real HTTP server on 127.0.0.1 standing in for a merchant (callback_url, success_url,
// webhook address). It records every request with its raw body.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Answer the next requests with this status (default 200). */
  respondWith(status: number | ((r: ReceivedRequest) => number), delayMs?: number): void;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/**
 * What the shopper's browser posted to a merchant's return address since `since` (an index into
 * `requests`): the gateway's hand-over page first checks the address with a HEAD request, and the
 * browser may ask for a favicon; neither is the return.
 */
export function returnPosts(receiver: Receiver, since: number): ReceivedRequest[] {
  return receiver.requests.slice(since).filter((r) => r.path !== '/favicon.ico' && r.method !== 'HEAD');
}

export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let status: number | ((r: ReceivedRequest) => number) = 200;
  let delay = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      requests.push(r);
      const code = typeof status === 'function' ? status(r) : status;
      setTimeout(() => {
        res.writeHead(code, { 'Content-Type': 'text/plain' });
        res.end('ok');
      }, delay);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respondWith(s, d = 0) {
      status = s;
      delay = d;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${requests.length} of ${count} requests`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return requests.slice(0, count);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
