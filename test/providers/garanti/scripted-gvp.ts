// A small scripted HTTP server on 127.0.0.1 standing in for GVP's VPServlet: it records each
// request (the XML body, parsed) and answers what the test scripted, after an optional delay.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import { responseXml, type Tree } from './fixtures.ts';

export interface Script {
  /** A GVPSResponse tree, or raw text sent as it is. */
  body: Tree | string;
  status?: number;
  delayMs?: number;
}

export interface ScriptedGvp {
  url: string;
  /** Each request's <GVPSRequest>, as text values. */
  requests: Tree[];
  rawBodies: string[];
  /** The answer to the next requests (the last one stays until replaced). */
  answer(script: (request: Tree) => Script): void;
  close(): Promise<void>;
}

const parser = new XMLParser({ parseTagValue: false, ignoreAttributes: true });

export async function startScriptedGvp(): Promise<ScriptedGvp> {
  let script: (request: Tree) => Script = () => ({ body: 'no script', status: 500 });
  const requests: Tree[] = [];
  const rawBodies: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      rawBodies.push(raw);
      const request = ((parser.parse(raw) as { GVPSRequest?: Tree }).GVPSRequest ?? {}) as Tree;
      requests.push(request);
      const { body, status = 200, delayMs = 0 } = script(request);
      setTimeout(() => {
        res.writeHead(status, { 'Content-Type': 'text/xml; charset=utf-8' });
        res.end(typeof body === 'string' ? body : responseXml(body));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/VPServlet`,
    requests,
    rawBodies,
    answer: (next) => {
      script = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The order id a request names. */
export const orderOf = (request: Tree): string => ((request.Order as Tree).OrderID as string) ?? '';
