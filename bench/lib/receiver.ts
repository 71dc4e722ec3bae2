// The merchant's webhook endpoint: answers 200 to everything and notes when each notification arrived.
import http from 'node:http';
import type net from 'node:net';
import { performance } from 'node:perf_hooks';

export interface Receipt {
  id: string;
  /** performance.now() of this process when the body was complete. */
  at: number;
}

export interface Receiver {
  url: string;
  receipts: Receipt[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receipts: Receipt[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      let id = '';
      try {
        id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id;
      } catch {
        // counted all the same; the distinct-id check reports it
      }
      receipts.push({ id, at });
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });
  server.maxConnections = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    receipts,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
