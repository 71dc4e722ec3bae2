// `npm start` and `npm run start:prod` as an operator runs them: npm in its own process group on a
// fresh DATA_DIR, stopped by SIGTERM to npm alone or by a signal to the whole group (Ctrl+C, or a
// container runtime). Either way npm exits 0, the gateway and its embedded PostgreSQL are gone, and
// the stop logs no warning or error line.
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from './helpers/client.ts';
import { groupMembers, killGroup, pgDataOf, ROOT, serverProcesses, startNpmProcess, stopEverything, waitForOutput, waitUntil, type GatewayProcess } from './helpers/gateway-process.ts';
import { acceptsConnections, freePort } from './helpers/ports.ts';
import { createTestDatabase } from './helpers/db.ts';
import { TEST_MASTER_KEY } from './helpers/gateway.ts';

const children: GatewayProcess[] = [];
const dataDirs: string[] = [];

afterAll(async () => {
  for (const r of children) killGroup(r.child.pid!);
  await stopEverything([], dataDirs.map(pgDataOf));
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}, 40_000);

async function startAndCall(script: string[], env?: Record<string, string>): Promise<{ r: GatewayProcess; pgPort: number; dataDir: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-npm-'));
  dataDirs.push(dataDir);
  const pgPort = await freePort();
  const r = startNpmProcess({ dataDir, port: await freePort(), pgPort, env }, script, children);
  await waitForOutput(r, env?.WORKERS ? '"workers listening"' : '"gateway listening"', 90_000);
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
    const run = await startAndCall(['start']);
    // The embedded server has a group of its own: the group's Ctrl+C reaches the gateway only, which stops the server last.
    expect(serverProcesses(pgDataOf(run.dataDir)).length).toBeGreaterThan(0);
    expect(groupMembers(run.r.child.pid!).filter((p) => p.args.includes('postgres'))).toEqual([]);
    await expectCleanStop(run, 'SIGINT', 'group');
  }, 90_000);
});

describe('WORKERS=2: npm start runs two gateway processes on one port', () => {
  const gatewayProcesses = (pgid: number) => groupMembers(pgid).filter((p) => /src\/main\.ts/.test(p.args));
  /** Access lines of the calls so far, by the worker that wrote them. */
  const workersThatAnswered = (out: string) =>
    new Set(out.split('\n').filter((l) => l.includes('"operation":"retrieve-bin"') && l.includes('"msg":"request"')).map((l) => (JSON.parse(l) as { worker?: number }).worker));

  it('both workers answer; a killed worker is replaced; a group Ctrl+C stops workers, then the database', async () => {
    const run = await startAndCall(['start'], { WORKERS: '2' });
    const pgid = run.r.child.pid!;
    // The primary and its two workers, all with npm start's V8 flag (workers inherit execArgv).
    expect(gatewayProcesses(pgid)).toHaveLength(3);
    for (const p of gatewayProcesses(pgid)) expect(p.args).toContain('--max-semi-space-size=32');
    const demo = JSON.parse(readFileSync(path.join(run.dataDir, 'demo-credentials.json'), 'utf8')) as Record<string, string>;
    const key = { team: 'demo', apiKey: demo.api_key!, apiSecret: demo.api_secret! };
    const bin = () => call(demo.base_url!, key, 'retrieve-bin', { card: { bin: '41111111' }, transaction: { amount: '100.00', currency: 'TRY' } });
    // The primary hands connections round-robin: several at once reach both workers.
    const answers = await Promise.all(Array.from({ length: 8 }, bin));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    await waitUntil(() => workersThatAnswered(run.r.output()).size === 2, 5_000, 'access lines of both workers').catch(() => {});
    expect(workersThatAnswered(run.r.output())).toEqual(new Set([1, 2]));
    // Only worker 1 seeded the demo workspace: one banner.
    expect(run.r.output().split('Demo workspace created').length - 1).toBe(1);

    // /metrics, whichever worker a scrape reaches, shows the whole gateway: both workers' requests
    // summed (the 8 calls above and startAndCall's one), the database's payments once.
    const paid = await call(demo.base_url!, key, 'regular-payment', {
      transaction: { channel_token: demo.channel_token, channel_reference: 'METRICS-1', amount: '10.00', currency: 'TRY', installment_number: 1, ip: '203.0.113.7', callback_url: 'http://127.0.0.1:9/cb' },
      customer: { channel_reference: 'METRICS-CUSTOMER' },
      card: { holder_name: 'AYSE YILMAZ', number: '4111111111111111', security_code: '123', expiry_month: '12', expiry_year: '2030' },
    });
    expect(paid.status).toBe(200);
    for (let i = 0; i < 4; i++) {
      const text = await (await fetch(`${demo.base_url}/metrics`)).text();
      expect(text).toContain('gateway_http_requests_total{operation="retrieve-bin",status="200"} 9\n');
      expect(text).toContain('gateway_payments{status="successful"} 1\n');
    }

    // npm started the primary as `node …`; the primary forked the workers with node's full path.
    const [, second] = gatewayProcesses(pgid).filter((p) => !p.args.startsWith('node '));
    process.kill(second!.pid, 'SIGKILL');
    await waitForOutput(run.r, '"worker died; starting another"', 30_000);
    await waitUntil(() => gatewayProcesses(pgid).length === 3 && !gatewayProcesses(pgid).some((p) => p.pid === second!.pid), 60_000, 'a new worker');
    await waitUntil(() => run.r.output().split('"gateway listening"').length - 1 === 3, 60_000, 'the new worker listening');
    expect((await bin()).status).toBe(200);

    await expectCleanStop(run, 'SIGINT', 'group');
  }, 240_000);
});

describe('WORKERS=2 when the workers cannot listen', () => {
  it('the start fails with exit 1 and a one-line reason, and leaves no PostgreSQL running', async () => {
    const taken = net.createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-npm-'));
      dataDirs.push(dataDir);
      const pgPort = await freePort();
      const r = startNpmProcess({ dataDir, port, pgPort, env: { WORKERS: '2' } }, ['start'], children);
      const result = await Promise.race([r.exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), 90_000))]);
      expect(result, r.output()).toEqual({ code: 1, signal: null });
      // The primary finds the port taken before it starts the database or any worker, and says so once.
      expect(r.output().match(/The gateway could not start: [^\n]*/g)).toEqual([`The gateway could not start: port ${port} on 127.0.0.1 is already in use (PORT): stop what uses it or choose another port.`]);
      await waitUntil(() => groupMembers(r.child.pid!).length === 0, 10_000, 'process group empty').catch(() => {});
      expect(groupMembers(r.child.pid!)).toEqual([]);
      expect(await acceptsConnections(pgPort)).toBe(false);
      expect(serverProcesses(pgDataOf(dataDir))).toEqual([]);
    } finally {
      taken.close();
    }
  }, 120_000);
});

describe('npm run build, then npm run start:prod', () => {
  it('compiles to JavaScript and runs it with plain node; stops cleanly on SIGTERM to the group', async () => {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe', timeout: 240_000 });
    expect(existsSync(path.join(ROOT, 'dist/main.js'))).toBe(true);
    // Production runs on its own PostgreSQL with its own key, and makes no demo workspace unless
    // asked: this start asks, to sign a call with it.
    const run = await startAndCall(['run', 'start:prod'], { DATABASE_URL: await createTestDatabase(), GATEWAY_MASTER_KEY: TEST_MASTER_KEY, SEED_DEMO: 'true' });
    // No TypeScript at runtime: the supervisor is `node dist/main.js`, without tsx, and so is its worker.
    const gateways = groupMembers(run.r.child.pid!).filter((p) => p.args.includes('dist/main.js'));
    expect(gateways).toHaveLength(2);
    expect(gateways[0]?.args).toBe('node --max-semi-space-size=32 dist/main.js');
    for (const p of gateways) expect(p.args).not.toContain('tsx');
    await expectCleanStop(run, 'SIGTERM', 'group');
  }, 360_000);
});
