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

/** Workspaces in the embedded database of a running gateway. */
async function workspaces(p: GatewayPlace): Promise<string[]> {
  const { password } = JSON.parse(readFileSync(path.join(p.dataDir, 'pg', 'settings.json'), 'utf8')) as { password: string };
  const client = new pg.Client({ connectionString: `postgresql://postgres:${password}@127.0.0.1:${p.pgPort}/gateway` });
  await client.connect();
  try {
    return (await client.query<{ slug: string }>('SELECT slug FROM "Workspace"')).rows.map((r) => r.slug);
  } finally {
    await client.end();
  }
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
    const p = await place({ NODE_ENV: 'production' });
    const r = startGatewayProcess(p, started);
    await waitForOutput(r, '"workers listening"', 60_000);
    expect(await workspaces(p)).toEqual([]);
    expect(existsSync(path.join(p.dataDir, 'demo-credentials.json'))).toBe(false);
    expect(r.output()).not.toMatch(/demo workspace|demo-credentials|api_secret|#token=/i);
    await stop(r);
  }, 90_000);

  it('SEED_DEMO=true asks for it in production: created, its secrets in the file only', async () => {
    const p = await place({ NODE_ENV: 'production', SEED_DEMO: 'true' });
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

  it('a taken port: stderr is one line naming the port, and no PostgreSQL is left running', async () => {
    const taken = net.createServer();
    const p = await place();
    await new Promise<void>((resolve) => taken.listen(p.port, '127.0.0.1', resolve));
    try {
      const res = await failedStart(p);
      expect(res.code, res.stdout + res.stderr).toBe(1);
      expect(res.stderr).toBe(`The gateway could not start: port ${p.port} on 127.0.0.1 is already in use (PORT): stop what uses it or choose another port.\n`);
      expect(serverProcesses(pgDataOf(p.dataDir))).toEqual([]);
      expect(await acceptsConnections(p.pgPort)).toBe(false);
    } finally {
      taken.close();
    }
  }, 90_000);
});
