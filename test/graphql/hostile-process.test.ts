// Hostile GraphQL requests against a real gateway process in production mode: oversized and deeply
// nested documents answer 4xx quickly and the process lives on with its memory in bounds; graphql-ws
// with a revoked or expired token closes 4403; nothing but JSON lines reaches stdout and stderr.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { startGatewayProcess, waitForOutput, type GatewayProcess } from '../helpers/gateway-process.ts';
import { freePort } from '../helpers/ports.ts';
import { seedWorkspace, startTestGateway, TEST_MASTER_KEY, type TestGateway } from '../helpers/gateway.ts';
import { issueAccessToken, revokeAccessToken } from '../../src/domain/access-tokens.ts';

let t: TestGateway;
let proc: GatewayProcess;
const started: GatewayProcess[] = [];
let url: string;
let pid: number;

beforeAll(async () => {
  t = await startTestGateway();
  await seedWorkspace(t, { slug: 'acme' });
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  proc = startGatewayProcess(
    { dataDir: mkdtempSync(path.join(tmpdir(), 'gateway-hostile-')), port, pgPort: await freePort(), env: { DATABASE_URL: t.databaseUrl, GATEWAY_MASTER_KEY: TEST_MASTER_KEY, NODE_ENV: 'production', AGENDA_PROCESS_EVERY_MS: '60000' } },
    started,
  );
  await waitForOutput(proc, '"gateway listening"', 60_000);
  pid = proc.child.pid!;
}, 90_000);

afterAll(async () => {
  for (const p of started) {
    p.child.kill('SIGTERM');
    await p.exited;
  }
  await t?.stop();
}, 60_000);

/** Resident memory of the gateway process in MB (Linux /proc). */
async function rssMb(): Promise<number> {
  const { readFileSync } = await import('node:fs');
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

async function post(body: string): Promise<{ status: number; text: string; ms: number }> {
  const begun = Date.now();
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  return { status: res.status, text: await res.text(), ms: Date.now() - begun };
}

async function alive(): Promise<void> {
  const res = await post(JSON.stringify({ query: '{ __typename }' }));
  expect(res.status).toBe(200);
}

describe('oversized and deep documents against a production process', () => {
  it('a 16 MB document of repeated fields is refused before it is read whole, and the process stays small', async () => {
    const before = await rssMb();
    const res = await post(JSON.stringify({ query: `{ ${'x '.repeat(8 * 1024 * 1024)}}` }));
    expect(res.status).toBe(413);
    expect(res.ms).toBeLessThan(5_000);
    expect((await rssMb()) - before).toBeLessThan(150);
    await alive();
  });

  it('a document under the body limit but over the document limit is a 400', async () => {
    const res = await post(JSON.stringify({ query: `{ ${'x '.repeat(60_000)}}` }));
    expect(res.status).toBe(400);
    expect(res.text).toContain('Query document too long');
    await alive();
  });

  it('5,000 levels of nesting answer 400, not 500', async () => {
    const res = await post(JSON.stringify({ query: `${'{ a '.repeat(5_000)}${'}'.repeat(5_000)}` }));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).errors[0].message).toMatch(/more than 3000 tokens/);
    await alive();
  });

  it('many parallel oversized requests leave the process alive', async () => {
    const big = JSON.stringify({ query: `{ ${'x '.repeat(2 * 1024 * 1024)}}` });
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(big)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(413));
    await alive();
  });
});

/** Opens graphql-ws and sends connection_init with `authorization`; resolves with the close code and reason. */
function connectWith(authorization: string, subscribe = false): Promise<{ code: number; reason: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: authorization } })));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { type: string };
      if (msg.type === 'connection_ack' && subscribe) ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ workspaces { slug } }' } }));
      else if (msg.type === 'connection_ack') reject(new Error('the connection was accepted'));
    });
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) }));
    ws.on('error', reject);
  });
}

describe('graphql-ws with a token that is no longer valid', () => {
  it('a revoked token closes 4403 Forbidden', async () => {
    const { token, record } = await issueAccessToken(t.gateway.services.db, 'acme', 'revoked');
    await revokeAccessToken(t.gateway.services.db, record.id);
    expect(await connectWith(`Bearer ${token}`)).toEqual({ code: 4403, reason: 'Forbidden' });
  });

  it('an expired token closes 4403 Forbidden', async () => {
    const longAgo = new Date(Date.now() - 40 * 24 * 3600 * 1000);
    const { token } = await issueAccessToken(t.gateway.services.db, null, 'expired', { expiresInDays: 1, clock: { now: () => longAgo } as never });
    expect(await connectWith(`Bearer ${token}`)).toEqual({ code: 4403, reason: 'Forbidden' });
  });

  it('a token revoked after connecting closes the connection 4403 at the next operation', async () => {
    const { token, record } = await issueAccessToken(t.gateway.services.db, 'acme', 'revoked-later');
    const closed = new Promise<{ code: number }>((resolve, reject) => {
      const ws = new WebSocket(`${url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${token}` } })));
      ws.on('message', async (data) => {
        if ((JSON.parse(String(data)) as { type: string }).type !== 'connection_ack') return;
        await revokeAccessToken(t.gateway.services.db, record.id);
        ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ workspaces { slug } }' } }));
      });
      ws.on('close', (code) => resolve({ code }));
      ws.on('error', reject);
    });
    expect((await closed).code).toBe(4403);
  });

  it('a WebSocket message over the size limit closes the socket (1009), the process lives on', async () => {
    const code = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`${url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { padding: 'x'.repeat(2 * 1024 * 1024) } })));
      ws.on('close', (c) => resolve(c));
      ws.on('error', reject);
    });
    expect(code).toBe(1009);
    await alive();
  });

  it('everything the process wrote is JSON lines', async () => {
    await new Promise((r) => setTimeout(r, 200));
    const lines = proc.output().split('\n').filter((l) => l.trim() !== '');
    const notJson = lines.filter((l) => {
      try {
        JSON.parse(l);
        return false;
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
  });
});
