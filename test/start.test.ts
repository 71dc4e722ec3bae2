// `npm start` as a new user runs it: a child process on a fresh DATA_DIR with the embedded
// PostgreSQL, stopped by a signal, started again on the same data, stopped again.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVING_ROLE } from '../src/db/embedded.ts';
import { call } from './helpers/client.ts';
import {
  pgDataOf,
  serverProcesses,
  startGatewayProcess as startProcess,
  stopEverything,
  waitForOutput,
  type GatewayProcess as Running,
} from './helpers/gateway-process.ts';
import { acceptsConnections, freePort } from './helpers/ports.ts';

const BIN_BODY = { card: { bin: '41111111' }, transaction: { amount: '100.00', currency: 'TRY' } };
const CREDENTIAL_KEYS = ['api_key', 'api_secret', 'base_url', 'channel_token', 'dashboard_token', 'dashboard_url', 'owner_email', 'payment_provider_token', 'team'];

let dataDir: string;
let port: number;
let pgPort: number;
const children: Running[] = [];

const startGatewayProcess = () => startProcess({ dataDir, port, pgPort }, children);
const pgData = () => pgDataOf(dataDir);

async function stopWith(r: Running, signal: NodeJS.Signals): Promise<void> {
  r.child.kill(signal);
  const result = await Promise.race([r.exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000))]);
  expect(result, `still running 20 s after ${signal}:\n${r.output()}`).not.toBeNull();
  expect(result, r.output()).toEqual({ code: 0, signal: null });
  expect(r.output()).toContain(`${signal} received`);
  // An orderly stop: jobs and connections end before the database does, so nothing complains.
  const afterSignal = r.output().slice(r.output().indexOf(`${signal} received`));
  expect(afterSignal.split('\n').filter((line) => /"level":"(warn|error)"/.test(line))).toEqual([]);
  expect(await acceptsConnections(pgPort)).toBe(false);
  expect(serverProcesses(pgData())).toEqual([]);
  expect(existsSync(path.join(pgData(), 'postmaster.pid'))).toBe(false);
}

/** Names from the `migrations applied` log line, if any. */
function appliedMigrations(r: Running): string[] {
  const line = r.output().split('\n').find((l) => l.includes('"msg":"migrations applied"'));
  return line ? (JSON.parse(line) as { applied: string[] }).applied : [];
}

function readCredentials(): Record<string, string> {
  return JSON.parse(readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as Record<string, string>;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-start-'));
  port = await freePort();
  pgPort = await freePort();
});

afterAll(async () => {
  // Whatever failed above, nothing outlives the test: the gateway, then its PostgreSQL.
  await stopEverything(children, [pgData()]);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 40_000);

describe('npm start (src/main.ts) on a fresh DATA_DIR with the embedded PostgreSQL', () => {
  let first: Running;
  let credentials: Record<string, string>;

  it('writes the demo credentials to DATA_DIR (0600), prints no secret, and the printed curl line works', async () => {
    first = startGatewayProcess();
    await waitForOutput(first, '"gateway listening"', 60_000);
    const out = first.output();
    expect(appliedMigrations(first).length).toBeGreaterThan(0);

    credentials = readCredentials();
    expect(Object.keys(credentials).sort()).toEqual(CREDENTIAL_KEYS);
    expect(statSync(path.join(dataDir, 'demo-credentials.json')).mode & 0o777).toBe(0o600);
    expect(credentials.base_url).toBe(`http://127.0.0.1:${port}`);
    expect(credentials.team).toBe('demo');
    // dashboard_url is the first owner's invitation: its page shows the owner's e-mail.
    expect(credentials.dashboard_url).toMatch(new RegExp(`^${credentials.base_url}/dashboard/#invitation=[\\w-]{43}$`));
    const invitation = await fetch(`${credentials.base_url}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: 'query ($t: String!) { invitation(invitationToken: $t) { email role } }', variables: { t: credentials.dashboard_url!.split('#invitation=')[1] } }) });
    expect(((await invitation.json()) as { data: unknown }).data).toEqual({ invitation: { email: credentials.owner_email, role: 'owner' } });
    // The banner names the identifiers and the file; the secret and the sign-in token stay in the file.
    for (const key of ['api_key', 'channel_token', 'payment_provider_token']) expect(out).toContain(credentials[key]);
    expect(out).toContain(path.join(dataDir, 'demo-credentials.json'));
    expect(out).not.toContain(credentials.api_secret);
    expect(out).not.toContain(credentials.dashboard_token);
    const curlLine = out.split('\n').find((line) => line.includes('curl '));
    expect(curlLine).toContain(`${credentials.base_url}/api/demo/gateway/retrieve-bin`);

    // Once it listens, the start lists where everything is; the root page lists the same.
    await waitForOutput(first, `The gateway is ready at ${credentials.base_url}/`, 10_000);
    for (const path of ['/dashboard/', '/docs', '/openapi.json', '/graphql', '/healthz', '/metrics']) expect(first.output()).toContain(`${credentials.base_url}${path}\n`);

    const health = await fetch(`${credentials.base_url}/healthz`);
    expect(health.status).toBe(200);

    const res = await call(credentials.base_url, { team: 'demo', apiKey: credentials.api_key, apiSecret: credentials.api_secret }, 'retrieve-bin', BIN_BODY);
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ successful: true, message: null });
    expect(res.body.card.scheme).toBe('visa');

    // The printed line works as printed (bash, curl and openssl as a merchant has them).
    const printed = JSON.parse(execFileSync('bash', ['-c', curlLine!.trim()], { encoding: 'utf8', timeout: 10_000 }));
    expect(printed.result.successful).toBe(true);

    // Every connection the running gateway holds (requests, jobs, LISTEN) is the serving role's:
    // the primary migrated as the superuser and gave the worker the serving role's URL alone.
    const { password } = JSON.parse(readFileSync(path.join(dataDir, 'pg', 'settings.json'), 'utf8')) as { password: string };
    const admin = new pg.Client({ connectionString: `postgresql://postgres:${password}@127.0.0.1:${pgPort}/gateway` });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        `SELECT DISTINCT usename FROM pg_stat_activity WHERE datname = 'gateway' AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      );
      expect(rows).toEqual([{ usename: SERVING_ROLE }]);
    } finally {
      await admin.end();
    }
  }, 90_000);

  it('stops cleanly on SIGTERM: exit 0, the embedded PostgreSQL is stopped too', async () => {
    await stopWith(first, 'SIGTERM');
  }, 30_000);

  it('starts again on the same DATA_DIR with the same data, and stops cleanly on SIGINT', async () => {
    const second = startGatewayProcess();
    await waitForOutput(second, '"gateway listening"', 60_000);
    expect(second.output()).not.toContain('Demo workspace created');
    // Where the credentials are, not the credentials: no sign-in token in any later start's output.
    expect(second.output()).toContain(`Demo workspace credentials and dashboard sign-in link: ${path.join(dataDir, 'demo-credentials.json')}`);
    expect(second.output()).not.toContain(credentials.dashboard_token);
    expect(second.output()).not.toContain(credentials.api_secret);
    // Nothing the first start applied is applied again (the data is the same database).
    expect(appliedMigrations(second).filter((name) => appliedMigrations(first).includes(name))).toEqual([]);
    expect(readCredentials()).toEqual(credentials);

    const res = await call(credentials.base_url, { team: 'demo', apiKey: credentials.api_key, apiSecret: credentials.api_secret }, 'retrieve-bin', BIN_BODY);
    expect(res.status).toBe(200);
    expect(res.body.result.successful).toBe(true);

    await stopWith(second, 'SIGINT');
  }, 90_000);
});
