// Requests as a merchant's server sends them: keep-alive connections (one per concurrent client),
// REST bodies signed over the exact bytes sent, GraphQL with a bearer token.
import http from 'node:http';
import { signBody } from '../../src/domain/signatures.ts';
import type { DemoCredentials } from './gateway-process.ts';

export interface HttpResult {
  status: number;
  text: string;
}

export class HttpClient {
  private readonly agent: http.Agent;
  private readonly url: URL;
  private inflight = 0;

  constructor(baseUrl: string, connections: number) {
    this.url = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  }

  post(path: string, headers: Record<string, string>, body: string): Promise<HttpResult> {
    this.inflight++;
    const done = () => this.inflight--;
    return new Promise<HttpResult>((resolve, reject) => {
      const req = http.request(
        { agent: this.agent, host: this.url.hostname, port: this.url.port, method: 'POST', path, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    }).finally(done);
  }

  /** Waits (bounded) for the requests already sent to be answered. */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.inflight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  close(): void {
    this.agent.destroy();
  }
}

/** One signed REST operation; the body form of the signature (HMAC-SHA256 of the raw body). */
export function callRest(client: HttpClient, creds: DemoCredentials, operation: string, payload: unknown): Promise<HttpResult> {
  const body = JSON.stringify(payload);
  return client.post(`/api/${creds.team}/gateway/${operation}`, { 'Content-Type': 'application/json', 'X-Api-Key': creds.api_key, 'X-Signature': signBody(creds.api_secret, body) }, body);
}

export function callGraphQL(client: HttpClient, token: string, query: string, variables: Record<string, unknown>): Promise<HttpResult> {
  return client.post('/graphql', { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Bearer ${token}` }, JSON.stringify({ query, variables }));
}
