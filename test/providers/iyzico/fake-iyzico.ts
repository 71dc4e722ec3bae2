// A stand-in for iyzico's API on 127.0.0.1: it checks every request's IYZWSv2 header with
// iyzipay's own code (as iyzico does, from x-iyzi-rnd, the path without its query and the raw
// body) and answers what the test scripts. A bodiless GET may also be signed over the path alone,
// as iyzico's Java and PHP clients sign it. A request with a wrong signature gets iyzico's
// "invalid signature" failure.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { iyzipayAuthorization } from './iyzipay-reference.ts';

export interface SeenRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
  rawBody: string;
  authorization: string;
  signatureValid: boolean;
}

export type Handler = (req: SeenRequest, res: ServerResponse) => void;

export interface FakeIyzico {
  url: string;
  seen: SeenRequest[];
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** Answers a JSON text as iyzico would (the text is sent as is, so `1.0` stays `1.0`). */
export function answer(res: ServerResponse, text: string, status = 200): void {
  res.writeHead(status, { 'Content-Type': 'application/json;charset=UTF-8' }).end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** IYZWSv2 over the random key and the path alone: how iyzico's Java and PHP clients sign a GET. */
function pathOnlyAuthorization(apiKey: string, secretKey: string, uriPath: string, randomKey: string): string {
  const signature = createHmac('sha256', secretKey).update(randomKey + uriPath).digest('hex');
  return `IYZWSv2 ${Buffer.from(`apiKey:${apiKey}&randomKey:${randomKey}&signature:${signature}`).toString('base64')}`;
}

export async function startFakeIyzico(apiKey: string, secretKey: string): Promise<FakeIyzico> {
  let handler: Handler = (_req, res) => answer(res, '{"status":"success"}');
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    void readBody(req).then((rawBody) => {
      const path = req.url ?? '';
      const body = JSON.parse(rawBody || '{}') as Record<string, unknown>;
      const authorization = req.headers.authorization ?? '';
      const randomKey = String(req.headers['x-iyzi-rnd'] ?? '');
      const uriPath = path.split('?')[0]!;
      const signatureValid =
        authorization === iyzipayAuthorization(apiKey, secretKey, uriPath, body, randomKey) ||
        (req.method === 'GET' && rawBody === '' && authorization === pathOnlyAuthorization(apiKey, secretKey, uriPath, randomKey));
      const request = { method: req.method ?? '', path, body, rawBody, authorization, signatureValid };
      seen.push(request);
      if (!signatureValid) {
        answer(res, '{"status":"failure","errorCode":"1000","errorMessage":"Geçersiz imza","locale":"tr","systemTime":1700000000000}', 401);
        return;
      }
      handler(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    handle(h) {
      handler = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
