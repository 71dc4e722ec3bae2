// The merchant side of webhooks: the merchant client package's verifier (packages/client), and the
// example receiver of docs/webhooks.md, run as written (a child process, the package imported from
// this checkout) against notifications signed by the gateway's own signer.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../packages/client/src/index.js';
import { signBody, signTimestamped } from '../../src/domain/signatures.ts';
import { freePort } from '../helpers/ports.ts';
import { eventually } from '../helpers/webhooks.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SECRET = 'sk_test_0123456789abcdef0123456789abcdef';
const API_KEY = 'pk_test_receiver';
const TEAM = 'acme';
const WEBHOOK_PATH = '/hooks/gateway';

const nowSeconds = () => Math.floor(Date.now() / 1000);

function notification(event = 'transaction.successful', token = randomUUID()): string {
  return JSON.stringify({ id: randomUUID(), event, created_at: new Date().toISOString().replace('Z', '000Z'), transaction: { token } });
}

/** Headers as the gateway's delivery makes them (src/domain/webhooks/delivery.ts). */
function signed(body: string, opts: { timestamp?: number; path?: string; secret?: string } = {}): Record<string, string> {
  const timestamp = String(opts.timestamp ?? nowSeconds());
  return {
    'Content-Type': 'application/json',
    'X-Timestamp': timestamp,
    'X-Signature': signTimestamped(opts.secret ?? SECRET, timestamp, 'POST', opts.path ?? WEBHOOK_PATH, body),
  };
}

/** The receiver code block of docs/webhooks.md, with the package import pointed at this checkout. */
function exampleReceiverSource(): string {
  const doc = readFileSync(path.join(ROOT, 'docs/webhooks.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Example receiver'));
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code || !code.includes("from '@payment-gateway/client'")) throw new Error('docs/webhooks.md: example receiver not found');
  return code.replace("'@payment-gateway/client'", `'${pathToFileURL(path.join(ROOT, 'packages/client/src/index.ts')).href}'`);
}

describe('verifyWebhook of @payment-gateway/client', () => {
  it('accepts what the gateway signs and rejects anything else', () => {
    const body = notification();
    const h = signed(body);
    const input = { secret: SECRET, timestamp: h['X-Timestamp'], signature: h['X-Signature'], path: WEBHOOK_PATH, rawBody: body };
    expect(verifyWebhook(input)).toBe(true);
    expect(verifyWebhook({ ...input, rawBody: Buffer.from(body) })).toBe(true);
    expect(verifyWebhook({ ...input, rawBody: JSON.stringify(JSON.parse(body), null, 1) })).toBe(false);
    expect(verifyWebhook({ ...input, path: '/hooks/other' })).toBe(false);
    expect(verifyWebhook({ ...input, secret: `${SECRET}x` })).toBe(false);
    expect(verifyWebhook({ ...input, signature: undefined })).toBe(false);
    expect(verifyWebhook({ ...input, timestamp: null })).toBe(false);
  });

  it('rejects a timestamp 6 minutes old even with a valid signature; 4:59 old still passes', () => {
    const body = notification();
    const now = new Date();
    const at = (secondsAgo: number) => {
      const h = signed(body, { timestamp: Math.floor(now.getTime() / 1000) - secondsAgo });
      return verifyWebhook({ secret: SECRET, timestamp: h['X-Timestamp'], signature: h['X-Signature'], path: WEBHOOK_PATH, rawBody: body, now });
    };
    expect(at(360)).toBe(false);
    expect(at(299)).toBe(true);
    expect(at(-360)).toBe(false); // from the future, too
  });
});

describe('the example receiver of docs/webhooks.md', { timeout: 60_000 }, () => {
  interface RetrieveCall {
    path: string;
    headers: http.IncomingHttpHeaders;
    body: string;
  }
  const retrieveCalls: RetrieveCall[] = [];
  let gateway: http.Server;
  let receiver: ChildProcess;
  let receiverUrl: string;
  let output = '';
  let dir: string;

  beforeAll(async () => {
    // Stands in for the gateway's retrieve-payment.
    gateway = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        retrieveCalls.push({ path: req.url ?? '', headers: req.headers, body });
        const token = (JSON.parse(body) as { transaction: { token: string } }).transaction.token;
        const answer = JSON.stringify({ result: { successful: true, message: null }, transaction: { token, channel_token: randomUUID(), channel_reference: 'order-1001' }, customer: null, conversion: null, payment: { status: 'successful', payment_status: 'paid', amount: '100.00', currency: 'TRY', refunded_amount: '0.00', refundable_amount: '100.00', refunds: [] } });
        // Signed as the gateway signs its answers; the receiver's client refuses an unsigned one.
        const timestamp = String(nowSeconds());
        res.writeHead(200, { 'Content-Type': 'application/json', 'X-Timestamp': timestamp, 'X-Signature': signTimestamped(SECRET, timestamp, 'POST', req.url ?? '', answer) });
        res.end(answer);
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    const gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;

    dir = mkdtempSync(path.join(tmpdir(), 'webhook-receiver-'));
    const file = path.join(dir, 'receiver.ts');
    writeFileSync(file, exampleReceiverSource());
    const port = await freePort();
    receiverUrl = `http://127.0.0.1:${port}`;
    receiver = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, GATEWAY_URL: gatewayUrl, GATEWAY_TEAM: TEAM, GATEWAY_API_KEY: API_KEY, GATEWAY_API_SECRET: SECRET, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    receiver.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    receiver.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    await eventually(async () => {
      if (receiver.exitCode !== null) throw new Error(`the example receiver exited: ${output}`);
      return output.includes(`listening on ${receiverUrl}${WEBHOOK_PATH}`);
    }, 'the example receiver to listen', 30_000);
  });

  afterAll(async () => {
    if (receiver && receiver.exitCode === null) {
      const exited = new Promise((resolve) => receiver.once('exit', resolve));
      receiver.kill();
      await exited;
    }
    await new Promise((resolve) => gateway?.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const post = async (body: string, headers: Record<string, string>, pathAndQuery = WEBHOOK_PATH) => {
    const res = await fetch(receiverUrl + pathAndQuery, { method: 'POST', headers, body });
    return res.status;
  };

  it('answers 200 to a signed notification and then calls retrieve-payment, once per id', async () => {
    const token = randomUUID();
    const body = notification('transaction.successful', token);
    // The gateway signs the address's path without its query string.
    expect(await post(body, signed(body), `${WEBHOOK_PATH}?source=gateway`)).toBe(200);
    const [call] = await eventually(async () => (retrieveCalls.length >= 1 ? retrieveCalls : undefined), 'retrieve-payment');
    expect(call!.path).toBe(`/api/${TEAM}/gateway/retrieve-payment`);
    expect(JSON.parse(call!.body)).toEqual({ transaction: { token } });
    expect(call!.headers['x-api-key']).toBe(API_KEY);
    expect(call!.headers['x-signature']).toBe(signBody(SECRET, call!.body));
    await eventually(async () => output.includes(`transaction.successful ${token}: successful=true reference=order-1001 status=paid amount=100.00 TRY`), 'the receiver to log the payment');

    // The same notification again (a retry or a resend): 200, and no second retrieve-payment.
    expect(await post(body, signed(body))).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(retrieveCalls).toHaveLength(1);
  });

  it('answers 401 to a 6-minute-old timestamp, a bad signature, another path or no signature', async () => {
    const body = notification();
    expect(await post(body, signed(body, { timestamp: nowSeconds() - 360 }))).toBe(401);
    expect(await post(body, { ...signed(body), 'X-Signature': signed(body, { secret: 'sk_other' })['X-Signature']! })).toBe(401);
    expect(await post(body.replace('transaction.successful', 'transaction.failed'), signed(body))).toBe(401);
    expect(await post(body, signed(body, { path: '/' }))).toBe(401);
    expect(await post(body, { 'Content-Type': 'application/json' })).toBe(401);
    expect(await post(body, signed(body), '/elsewhere')).toBe(404);
    await new Promise((r) => setTimeout(r, 300));
    expect(retrieveCalls).toHaveLength(1);
  });
});
