// How a start behaves as an operator meets it, with real processes: the demo workspace only where
// it belongs (a development start on the embedded database, or asked for with SEED_DEMO), never a
// secret in the output, and a start that cannot happen says why in one line and exits 1.
import { execFile } from 'node:child_process';
import net from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { gatewayEnv, pgDataOf, ROOT, serverProcesses, startGatewayProcess, stopEverything, waitForOutput, type GatewayPlace, type GatewayProcess } from '../helpers/gateway-process.ts';
import { acceptsConnections, freePort } from '../helpers/ports.ts';
import { createEmptyDatabase, createTestDatabase } from '../helpers/db.ts';
import { TEST_MASTER_KEY } from '../helpers/gateway.ts';

const started: GatewayProcess[] = [];
const dirs: string[] = [];

afterAll(async () => {
  await stopEverything(started, dirs.map(pgDataOf));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

async function place(env: Record<string, string> = {}): Promise<GatewayPlace> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-start-rules-'));
  dirs.push(dataDir);
  return { dataDir, port: await freePort(), pgPort: await freePort(), env };
}

/** A production start's settings: its own database (a fresh one, migrated or not) and a master key. */
async function production(env: Record<string, string> = {}, database: () => Promise<string> = createTestDatabase): Promise<Record<string, string>> {
  return { NODE_ENV: 'production', DATABASE_URL: await database(), GATEWAY_MASTER_KEY: TEST_MASTER_KEY, ...env };
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Workspaces in the database of a running gateway (DATABASE_URL). */
async function workspaces(p: GatewayPlace): Promise<string[]> {
  return (await query<{ slug: string }>(p.env!.DATABASE_URL!, 'SELECT slug FROM "Workspace"')).map((r) => r.slug);
}

async function stop(r: GatewayProcess): Promise<void> {
  r.child.kill('SIGTERM');
  expect(await r.exited, r.output()).toEqual({ code: 0, signal: null });
}

/** A start that must fail: its exit code and its stderr alone. */
function failedStart(p: GatewayPlace): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env: gatewayEnv(p), timeout: 90_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

describe('the demo workspace', () => {
  it('a production start creates none and prints no credentials', async () => {
    const p = await place(await production());
    const r = startGatewayProcess(p, started);
    await waitForOutput(r, '"workers listening"', 60_000);
    expect(await workspaces(p)).toEqual([]);
    expect(existsSync(path.join(p.dataDir, 'demo-credentials.json'))).toBe(false);
    expect(r.output()).not.toMatch(/demo workspace|demo-credentials|api_secret|#token=/i);
    await stop(r);
  }, 90_000);

  it('SEED_DEMO=true asks for it in production: created, its secrets in the file only', async () => {
    const p = await place(await production({ SEED_DEMO: 'true' }));
    const r = startGatewayProcess(p, started);
    await waitForOutput(r, '"workers listening"', 60_000);
    expect(await workspaces(p)).toEqual(['demo']);
    const demo = JSON.parse(readFileSync(path.join(p.dataDir, 'demo-credentials.json'), 'utf8')) as Record<string, string>;
    expect(r.output()).toContain('Demo workspace created');
    expect(r.output()).not.toContain(demo.api_secret);
    expect(r.output()).not.toContain(demo.dashboard_token);
    await stop(r);
  }, 90_000);
});

describe('the demo rule (SEED_DEMO)', () => {
  it('unset: only a development start on the embedded database; set: as it says', () => {
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/gateway' }).seedDemo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).seedDemo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgresql://db/gateway', SEED_DEMO: '1' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
    expect(() => loadConfig({ SEED_DEMO: 'yes' })).toThrow(/SEED_DEMO/);
  });
});

describe('a start that cannot happen: one line, exit 1', () => {
  it('a bad setting: stderr is one line naming it, no stack trace', async () => {
    const res = await failedStart(await place({ WORKERS: 'many' }));
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^The gateway could not start: Invalid configuration: WORKERS: [^\n]+\n$/);
  }, 60_000);

  it('production without DATABASE_URL or GATEWAY_MASTER_KEY: both named in one line, with how to make a key; nothing started', async () => {
    const p = await place({ NODE_ENV: 'production' });
    const res = await failedStart(p);
    expect(res.code, res.stdout + res.stderr).toBe(1);
    expect(res.stderr).toBe(
      'The gateway could not start: Invalid configuration: ' +
        'DATABASE_URL: required with NODE_ENV=production (the embedded PostgreSQL is for development): set it to postgresql://user:password@host:5432/database; ' +
        'GATEWAY_MASTER_KEY: required with NODE_ENV=production: make one with `openssl rand -hex 32` and keep it (it decrypts the stored API secrets)\n',
    );
    // The embedded PostgreSQL was never started (its folder is made when it is), nor a key generated.
    expect(existsSync(path.join(p.dataDir, 'pg'))).toBe(false);
    expect(existsSync(path.join(p.dataDir, 'master.key'))).toBe(false);
  }, 60_000);

  it('a taken port: stderr is one line naming the port, said before the embedded PostgreSQL starts', async () => {
    const taken = net.createServer();
    const p = await place();
    await new Promise<void>((resolve) => taken.listen(p.port, '127.0.0.1', resolve));
    try {
      const res = await failedStart(p);
      expect(res.code, res.stdout + res.stderr).toBe(1);
      expect(res.stderr).toBe(`The gateway could not start: port ${p.port} on 127.0.0.1 is already in use (PORT): stop what uses it or choose another port.\n`);
      expect(res.stdout).not.toContain('embedded PostgreSQL started');
      expect(existsSync(path.join(p.dataDir, 'pg'))).toBe(false);
      expect(serverProcesses(pgDataOf(p.dataDir))).toEqual([]);
      expect(await acceptsConnections(p.pgPort)).toBe(false);
    } finally {
      taken.close();
    }
  }, 90_000);

  it('a taken port in production: said before any migration runs on DATABASE_URL', async () => {
    const taken = net.createServer();
    const p = await place(await production({}, createEmptyDatabase));
    await new Promise<void>((resolve) => taken.listen(p.port, '127.0.0.1', resolve));
    try {
      const res = await failedStart(p);
      expect(res.code, res.stdout + res.stderr).toBe(1);
      expect(res.stderr).toBe(`The gateway could not start: port ${p.port} on 127.0.0.1 is already in use (PORT): stop what uses it or choose another port.\n`);
      expect(await query(p.env!.DATABASE_URL!, "SELECT 1 FROM pg_tables WHERE schemaname = 'public'")).toEqual([]);
    } finally {
      taken.close();
    }
  }, 60_000);
});
