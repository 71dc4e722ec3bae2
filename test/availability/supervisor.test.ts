// `npm start` with the default WORKERS=1 is a supervisor (the cluster primary) and one serving
// process. A fatal end of the serving process (SIGKILL as the OOM killer sends it, SIGABRT as a V8
// heap abort ends in) is replaced and the gateway answers again; the embedded PostgreSQL stays
// owned by the supervisor (never orphaned), is started again if it dies itself, and a final
// SIGTERM leaves no process behind.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/client.ts';
import { isAlive, pgDataOf, postmasterPid, serverProcesses, startGatewayProcess, stopEverything, waitForOutput, waitUntil, type GatewayProcess } from '../helpers/gateway-process.ts';
import { acceptsConnections, freePort } from '../helpers/ports.ts';

let dataDir: string;
let pgPort: number;
let port: number;
let r: GatewayProcess;
const started: GatewayProcess[] = [];
const BIN = { card: { bin: '41111111' }, transaction: { amount: '100.00', currency: 'TRY' } };

/** The serving processes: children of the supervisor running the gateway. */
function workers(primary: number): number[] {
  const ps = execFileSync('ps', ['-eww', '-o', 'pid=,ppid=,stat=,args='], { encoding: 'utf8' });
  return ps
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && Number(m[2]) === primary && !m[3]!.startsWith('Z') && m[4]!.includes('src/main.ts'))
    .map((m) => Number(m[1]));
}

async function answers(): Promise<void> {
  const demo = JSON.parse(readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as Record<string, string>;
  const res = await call(demo.base_url!, { team: 'demo', apiKey: demo.api_key!, apiSecret: demo.api_secret! }, 'retrieve-bin', BIN);
  expect(res.status).toBe(200);
}

const count = (needle: string) => r.output().split(needle).length - 1;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-supervisor-'));
  pgPort = await freePort();
  port = await freePort();
});

afterAll(async () => {
  await stopEverything(started, [pgDataOf(dataDir)]);
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('npm start supervises its serving process (WORKERS=1)', () => {
  it('runs one worker under the supervisor, which owns the embedded PostgreSQL', async () => {
    r = startGatewayProcess({ dataDir, port, pgPort }, started);
    await waitForOutput(r, '"workers listening"', 60_000);
    expect(workers(r.child.pid!)).toHaveLength(1);
    const postmaster = postmasterPid(pgDataOf(dataDir))!;
    expect(Number(readFileSync(`/proc/${postmaster}/stat`, 'utf8').split(') ')[1]!.split(' ')[1])).toBe(r.child.pid);
    await answers();
    // /metrics of a one-worker cluster: the worker's own counters, gathered through the supervisor.
    const metrics = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('gateway_http_requests_total{operation="retrieve-bin",status="200"} 1\n');
  }, 90_000);

  for (const signal of ['SIGKILL', 'SIGABRT'] as const) {
    it(`a worker ended by ${signal} is replaced and the gateway answers again; PostgreSQL is untouched`, async () => {
      const [worker] = workers(r.child.pid!);
      const postmaster = postmasterPid(pgDataOf(dataDir));
      const listening = count('"gateway listening"');
      process.kill(worker!, signal);
      await waitUntil(() => count('"worker died; starting another"') > 0 && r.output().includes(`"signal":"${signal}"`), 30_000, 'the death logged');
      await waitUntil(() => count('"gateway listening"') > listening, 60_000, 'a new worker listening');
      expect(workers(r.child.pid!)).not.toContain(worker);
      expect(workers(r.child.pid!)).toHaveLength(1);
      await answers();
      // Not orphaned, not restarted: the supervisor's server kept running through it.
      expect(postmasterPid(pgDataOf(dataDir))).toBe(postmaster);
      expect(r.child.exitCode).toBeNull();
    }, 90_000);
  }

  it('the embedded PostgreSQL killed under it is started again and the same worker answers', async () => {
    const [worker] = workers(r.child.pid!);
    const postmaster = postmasterPid(pgDataOf(dataDir))!;
    process.kill(postmaster, 'SIGKILL');
    await waitForOutput(r, '"embedded PostgreSQL started again"', 60_000);
    expect(r.output()).toContain('"msg":"embedded PostgreSQL exited unexpectedly; starting it again"');
    await waitUntil(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200, 30_000, 'healthz 200 again');
    await answers();
    expect(workers(r.child.pid!)).toEqual([worker]);
  }, 90_000);

  it('SIGTERM stops the worker, then the database: exit 0, no process left', async () => {
    const [worker] = workers(r.child.pid!);
    r.child.kill('SIGTERM');
    expect(await r.exited, r.output()).toEqual({ code: 0, signal: null });
    await waitUntil(() => !isAlive(worker!), 10_000, 'worker gone');
    expect(serverProcesses(pgDataOf(dataDir))).toEqual([]);
    expect(existsSync(path.join(pgDataOf(dataDir), 'postmaster.pid'))).toBe(false);
    expect(await acceptsConnections(pgPort)).toBe(false);
  }, 60_000);
});

describe('a worker that keeps dying', () => {
  it('is replaced with growing pauses, each death logged, and the 7th death within 10 minutes stops the gateway: exit 1, one line, no process left', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gateway-supervisor-loop-'));
    const loopPgPort = await freePort();
    const loop = startGatewayProcess({ dataDir: dir, port: await freePort(), pgPort: loopPgPort }, started);
    try {
      await waitForOutput(loop, '"workers listening"', 60_000);
      const killed = new Set<number>();
      // Kill every worker as soon as it appears, until the supervisor gives up.
      while (loop.child.exitCode === null) {
        for (const pid of workers(loop.child.pid!)) {
          if (killed.has(pid)) continue;
          killed.add(pid);
          process.kill(pid, 'SIGKILL');
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await loop.exited).toEqual({ code: 1, signal: null });
      const deaths = loop.output().split('\n').filter((l) => l.includes('"worker died; starting another"')).map((l) => JSON.parse(l) as { attempt: number; delay_ms: number });
      expect(deaths.map((d) => [d.attempt, d.delay_ms])).toEqual([[1, 500], [2, 1000], [3, 2000], [4, 4000], [5, 8000], [6, 16000]]);
      expect(loop.output()).toContain('"msg":"worker keeps dying; stopping the gateway"');
      expect(loop.output().match(/^The gateway stopped: .*$/gm)).toEqual(['The gateway stopped: worker 1 died 7 times within 10 minutes (last: SIGKILL).']);
      expect(serverProcesses(pgDataOf(dir))).toEqual([]);
      expect(await acceptsConnections(loopPgPort)).toBe(false);
    } finally {
      await stopEverything([loop], [pgDataOf(dir)]);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
