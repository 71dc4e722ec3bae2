// `npm start` and `npm run start:prod` as an operator runs them: npm in its own process group on a
// fresh DATA_DIR, stopped by SIGTERM to npm alone or by a signal to the whole group (Ctrl+C, or a
// container runtime). Either way npm exits 0, the gateway and its embedded PostgreSQL are gone, and
// the stop logs no warning or error line.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from './helpers/client.ts';
import { groupMembers, killGroup, pgDataOf, ROOT, serverProcesses, startNpmProcess, stopEverything, waitForOutput, waitUntil, type GatewayProcess } from './helpers/gateway-process.ts';
import { acceptsConnections, freePort } from './helpers/ports.ts';

const children: GatewayProcess[] = [];
const dataDirs: string[] = [];

afterAll(async () => {
  for (const r of children) killGroup(r.child.pid!);
  await stopEverything([], dataDirs.map(pgDataOf));
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}, 40_000);

async function startAndCall(script: string[]): Promise<{ r: GatewayProcess; pgPort: number; dataDir: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-npm-'));
  dataDirs.push(dataDir);
  const pgPort = await freePort();
  const r = startNpmProcess({ dataDir, port: await freePort(), pgPort }, script, children);
  await waitForOutput(r, '"gateway listening"', 60_000);
  const demo = JSON.parse(readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as Record<string, string>;
  const res = await call(demo.base_url!, { team: 'demo', apiKey: demo.api_key!, apiSecret: demo.api_secret! }, 'retrieve-bin', { card: { bin: '41111111' }, transaction: { amount: '100.00', currency: 'TRY' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-request-id')).toBeTruthy();
  return { r, pgPort, dataDir };
}

async function expectCleanStop(run: { r: GatewayProcess; pgPort: number; dataDir: string }, signal: NodeJS.Signals, target: 'npm' | 'group'): Promise<void> {
  const { r } = run;
  const pgid = r.child.pid!;
  if (target === 'group') process.kill(-pgid, signal);
  else r.child.kill(signal);
  const result = await Promise.race([r.exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), 30_000))]);
  expect(result, `npm still running 30 s after ${signal}:\n${r.output()}`).not.toBeNull();
  expect(result, r.output()).toEqual({ code: 0, signal: null });
  // The gateway (npm's child) has gone too, not left behind as an orphan.
  await waitUntil(() => groupMembers(pgid).length === 0, 10_000, `process group ${pgid} empty`).catch(() => {});
  expect(groupMembers(pgid)).toEqual([]);
  const out = r.output();
  expect(out).toContain(`${signal} received, stopping`);
  expect(out).not.toContain('received again');
  const afterSignal = out.slice(out.indexOf(`${signal} received`));
  expect(afterSignal.split('\n').filter((line) => /"level":"(warn|error)"|ERR!|Error/.test(line)), afterSignal).toEqual([]);
  expect(await acceptsConnections(run.pgPort)).toBe(false);
  expect(serverProcesses(pgDataOf(run.dataDir))).toEqual([]);
  expect(existsSync(path.join(pgDataOf(run.dataDir), 'postmaster.pid'))).toBe(false);
}

describe('npm start stops cleanly', () => {
  it('on SIGTERM sent to the npm process', async () => {
    await expectCleanStop(await startAndCall(['start']), 'SIGTERM', 'npm');
  }, 90_000);

  it('on SIGINT sent to the whole process group (Ctrl+C)', async () => {
    await expectCleanStop(await startAndCall(['start']), 'SIGINT', 'group');
  }, 90_000);
});

describe('npm run build, then npm run start:prod', () => {
  it('compiles to JavaScript and runs it with plain node; stops cleanly on SIGTERM to the group', async () => {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe', timeout: 240_000 });
    expect(existsSync(path.join(ROOT, 'dist/main.js'))).toBe(true);
    const run = await startAndCall(['run', 'start:prod']);
    // No TypeScript at runtime: the gateway process is `node dist/main.js`, without tsx.
    const gateway = groupMembers(run.r.child.pid!).find((p) => p.args.includes('dist/main.js'));
    expect(gateway?.args).toBe('node dist/main.js');
    await expectCleanStop(run, 'SIGTERM', 'group');
  }, 360_000);
});
