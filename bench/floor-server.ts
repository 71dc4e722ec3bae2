// The floor of `npm run bench` (phase `floor`): the least a Node HTTP service can spend on this
// machine to answer regular-payment and retrieve-payment. It does only what no gateway can skip:
// node:http with keep-alive, the API key and the body's HMAC checked, the JSON parsed, the bare-pg
// baseline's SQL (bench/lib/baseline.ts: one 3-statement transaction, or one SELECT) and a JSON
// answer. No GraphQL, no ORM, no validation, no bank, no events, no request limits. It runs in
// its own process, started by the benchmark, so that its CPU is measured as the gateway's is: what
// it costs per operation is the part of the gateway's cost that a faster gateway could not remove.
import http from 'node:http';
import { verifyBodySignature } from '../src/domain/signatures.ts';
import { Baseline } from './lib/baseline.ts';
import type { DemoCredentials } from './lib/gateway-process.ts';

const demo = JSON.parse(process.env.FLOOR_DEMO ?? '') as DemoCredentials;
const baseline = await Baseline.open(process.env.FLOOR_DATABASE_URL ?? '', Number(process.env.DB_POOL_SIZE) || 10, demo);
const prefix = `/api/${demo.team}/gateway/`;

function answer(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

interface Body {
  customer?: { channel_reference?: string };
  transaction?: { token?: string };
}

async function operate(operation: string, body: Body): Promise<unknown> {
  if (operation === 'regular-payment') {
    const token = await baseline.payment(body.customer?.channel_reference ?? 'FLOOR');
    return { result: { successful: true }, transaction: { token } };
  }
  if (operation === 'retrieve-payment') return { result: { successful: true }, transaction: await baseline.retrieve(body.transaction?.token ?? '') };
  return null;
}

const server = http.createServer({ keepAlive: true }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const operation = req.url?.startsWith(prefix) ? req.url.slice(prefix.length) : '';
    if (req.headers['x-api-key'] !== demo.api_key || !verifyBodySignature(demo.api_secret, raw, String(req.headers['x-signature'] ?? ''))) return answer(res, 401, { error: 'unauthorized' });
    operate(operation, JSON.parse(raw.toString('utf8')) as Body).then(
      (body) => (body === null ? answer(res, 404, { error: 'not found' }) : answer(res, 200, body)),
      (err: unknown) => answer(res, 500, { error: String(err) }),
    );
  });
});

server.listen(Number(process.env.FLOOR_PORT), '127.0.0.1', () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void baseline.close().finally(() => process.exit(0));
});
