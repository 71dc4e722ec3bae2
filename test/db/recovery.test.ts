// After `kill -9` of a gateway's supervisor (npm start's process, which owns the embedded
// PostgreSQL; its worker exits with it) or of a CLI, the embedded PostgreSQL keeps running on the
// data folder; the next start stops that orphan and starts cleanly. (A serving process that dies
// is replaced by the supervisor instead: test/availability/supervisor.test.ts.) Also after a machine crash (a
// postmaster.pid naming a dead process, or a PID another program has since got). Real processes.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverOrphanedServer } from '../../src/db/orphaned-server.ts';
import { call } from '../helpers/client.ts';
import {
  gatewayEnv,
  isAlive,
  pgDataOf,
  postmasterPid,
  ROOT,
  serverProcesses,
  startGatewayProcess,
  stopEverything,
  waitForOutput,
  waitUntil,
  type GatewayPlace,
  type GatewayProcess,
} from '../helpers/gateway-process.ts';
import { acceptsConnections, freePort } from '../helpers/ports.ts';

const BIN_BODY = { card: { bin: '41111111' }, transaction: { amount: '100.00', currency: 'TRY' } };

let place: GatewayPlace;
let pgData: string;
let otherDir: string;
const started: GatewayProcess[] = [];
const bystanders: ChildProcess[] = [];

const start = () => startGatewayProcess(place, started);
const healthz = (port = place.port) => fetch(`http://127.0.0.1:${port}/healthz`).then((res) => res.status);
const credentialsFile = () => path.join(place.dataDir, 'demo-credentials.json');

async function killHard(r: GatewayProcess): Promise<void> {
  r.child.kill('SIGKILL');
  expect(await r.exited).toEqual({ code: null, signal: 'SIGKILL' });
}

async function stopCleanly(r: GatewayProcess): Promise<void> {
  r.child.kill('SIGTERM');
  expect(await r.exited, r.output()).toEqual({ code: 0, signal: null });
  expect(serverProcesses(pgData)).toEqual([]);
  expect(existsSync(path.join(pgData, 'postmaster.pid'))).toBe(false);
  expect(await acceptsConnections(place.pgPort)).toBe(false);
}

/** A signed call with the demo credentials: the gateway serves the data of the first start. */
async function servesDemo(): Promise<void> {
  const demo = JSON.parse(readFileSync(credentialsFile(), 'utf8')) as { base_url: string; api_key: string; api_secret: string };
  const res = await call(demo.base_url, { team: 'demo', apiKey: demo.api_key, apiSecret: demo.api_secret }, 'retrieve-bin', BIN_BODY);
  expect(res.status).toBe(200);
  expect(res.body.result.successful).toBe(true);
}

function runCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, env: gatewayEnv(place), timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** The orphan a killed starter left: its postmaster still runs and still accepts connections. */
async function expectOrphan(): Promise<number> {
  const pid = postmasterPid(pgData);
  expect(pid).not.toBeNull();
  expect(isAlive(pid!)).toBe(true);
  expect(await acceptsConnections(place.pgPort)).toBe(true);
  return pid!;
}

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-recovery-'));
  place = { dataDir, port: await freePort(), pgPort: await freePort() };
  pgData = pgDataOf(dataDir);
  otherDir = mkdtempSync(path.join(tmpdir(), 'gateway-recovery-other-'));
});

afterAll(async () => {
  for (const child of bystanders) child.kill('SIGKILL');
  await stopEverything(started, [pgData]);
  rmSync(place.dataDir, { recursive: true, force: true });
  rmSync(otherDir, { recursive: true, force: true });
}, 60_000);

describe('a start after kill -9 of the gateway or the CLI', () => {
  it('first start: /healthz is never 200 before the demo credentials are written', async () => {
    const first = start();
    const seen: Array<number | 'refused'> = [];
    await waitUntil(
      async () => {
        const status = await healthz().catch(() => 'refused' as const);
        if (status === 200) expect(existsSync(credentialsFile()), `healthz 200 before ${credentialsFile()} existed`).toBe(true);
        if (seen.at(-1) !== status) seen.push(status);
        if (first.child.exitCode !== null) throw new Error(`the gateway exited:\n${first.output()}`);
        return status === 200;
      },
      45_000,
      'healthz 200',
    );
    expect(seen.at(-1)).toBe(200);
    expect(seen.slice(0, -1).every((s) => s === 'refused' || s === 503)).toBe(true);
    await waitForOutput(first, '"gateway listening"');
    await killHard(first);
  }, 60_000);

  it('npm start stops the orphaned PostgreSQL of its DATA_DIR and comes up on the same data', async () => {
    const orphan = await expectOrphan();
    const second = start();
    await waitForOutput(second, '"gateway listening"');
    const recovery = second.output().split('\n').find((line) => line.includes('stopped the server a killed process left running'));
    expect(recovery, second.output()).toBeDefined();
    expect(JSON.parse(recovery!)).toMatchObject({ level: 'warn', pid: orphan, dir: pgData });
    expect(isAlive(orphan)).toBe(false);
    expect(postmasterPid(pgData)).not.toBe(orphan);
    expect(await healthz()).toBe(200);
    await servesDemo();
    await killHard(second);
  }, 60_000);

  it('the CLI stops the orphan too, works on the same data, and leaves no server running', async () => {
    const orphan = await expectOrphan();
    const res = await runCli('--json', 'workspace', 'list');
    expect(res.code, res.stderr).toBe(0);
    expect((JSON.parse(res.stdout) as Array<{ team: string }>).map((w) => w.team)).toEqual(['demo']);
    expect(res.stderr).toContain('stopped the server a killed process left running');
    expect(isAlive(orphan)).toBe(false);
    expect(serverProcesses(pgData)).toEqual([]);
    expect(existsSync(path.join(pgData, 'postmaster.pid'))).toBe(false);
  }, 60_000);
});

describe('a start after a machine crash', () => {
  it('starts on a postmaster.pid whose process is gone', async () => {
    const running = start();
    await waitForOutput(running, '"gateway listening"');
    // A power cut: the gateway and every server process die at once, nobody cleans up.
    const victims = serverProcesses(pgData).map((p) => p.pid);
    const postmaster = postmasterPid(pgData)!;
    await killHard(running);
    process.kill(postmaster, 'SIGKILL');
    await waitUntil(() => victims.every((pid) => !isAlive(pid)), 10_000, 'every server process gone');
    expect(postmasterPid(pgData)).toBe(postmaster);

    const next = start();
    await waitForOutput(next, '"gateway listening"');
    expect(next.output()).toContain('stale postmaster.pid, its process is gone');
    expect(await healthz()).toBe(200);
    await servesDemo();
    await stopCleanly(next);
  }, 60_000);

  it('starts on a postmaster.pid whose PID another program has since got, and leaves that program alone', async () => {
    // As root the server runs as the owner of the data folder; a live process of that user with
    // the recorded PID makes PostgreSQL itself refuse to start ("lock file already exists").
    const owner = statSync(pgData);
    const bystander = spawn('sleep', ['120'], { stdio: 'ignore', ...(process.getuid?.() === 0 ? { uid: owner.uid, gid: owner.gid } : {}) });
    bystanders.push(bystander);
    const pidFile = path.join(pgData, 'postmaster.pid');
    writeFileSync(pidFile, `${bystander.pid}\n${pgData}\n`, { mode: 0o600 });
    chownSync(pidFile, owner.uid, owner.gid);

    const next = start();
    await waitForOutput(next, '"gateway listening"');
    expect(next.output()).toContain('removed a stale postmaster.pid, its PID now belongs to another program');
    expect(isAlive(bystander.pid!)).toBe(true);
    expect(await healthz()).toBe(200);
    await stopCleanly(next);
    expect(isAlive(bystander.pid!)).toBe(true);
  }, 60_000);
});

/** The child of `parent` that has exited and is not reaped yet, once there is one. */
async function zombieChildOf(parent: number): Promise<number> {
  let zombie: number | undefined;
  await waitUntil(
    () => {
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        const stat = readFileSafe(`/proc/${entry}/stat`);
        // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
        const [state, ppid] = stat?.slice(stat.lastIndexOf(')') + 2).split(' ') ?? [];
        if (state === 'Z' && Number(ppid) === parent) zombie = Number(entry);
      }
      return zombie !== undefined;
    },
    10_000,
    'a zombie child',
  );
  return zombie!;
}

function readFileSafe(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

describe('a start after its server died unreaped', () => {
  it('starts on a postmaster.pid whose process is dead but not yet reaped (a zombie)', async () => {
    // Where the machine's init reaps late, a killed server stays a zombie for a while; its PID
    // still answers kill(pid, 0), so PostgreSQL alone would refuse the file. `sh` starts a child
    // that exits at once, then becomes `sleep`, which never reaps it.
    const owner = statSync(pgData);
    const parent = spawn('sh', ['-c', 'sleep 0 & exec sleep 120'], { stdio: 'ignore', ...(process.getuid?.() === 0 ? { uid: owner.uid, gid: owner.gid } : {}) });
    bystanders.push(parent);
    const zombie = await zombieChildOf(parent.pid!);
    // As the server left them: postmaster.pid (PID, folder, start time, port, socket folder) and
    // the lock of its Unix socket, both naming the dead process.
    const pidFile = path.join(pgData, 'postmaster.pid');
    const lockLines = `${zombie}\n${pgData}\n1700000000\n${place.pgPort}\n/tmp\n`;
    writeFileSync(pidFile, lockLines, { mode: 0o600 });
    chownSync(pidFile, owner.uid, owner.gid);
    const socketLock = `/tmp/.s.PGSQL.${place.pgPort}.lock`;
    writeFileSync(socketLock, lockLines, { mode: 0o600 });
    chownSync(socketLock, owner.uid, owner.gid);

    const next = start();
    await waitForOutput(next, '"gateway listening"');
    expect(next.output()).toContain('removed a stale postmaster.pid, its process is gone (dead, not yet reaped)');
    expect(readFileSync(socketLock, 'utf8')).not.toContain(`${zombie}\n${pgData}`);
    expect(await healthz()).toBe(200);
    await servesDemo();
    await stopCleanly(next);
  }, 60_000);
});

describe('a server that is in use is never touched', () => {
  it('a second npm start on the DATA_DIR of a running gateway fails and the first keeps serving; another folder naming its PID leaves it alone', async () => {
    const running = start();
    await waitForOutput(running, '"gateway listening"');
    const postmaster = postmasterPid(pgData)!;

    const secondPort = await freePort();
    const second = startGatewayProcess({ ...place, port: secondPort }, started);
    expect((await second.exited).code).toBe(1);
    expect(second.output()).toContain(`Embedded PostgreSQL already runs on ${pgData} (PID ${postmaster}), started by process ${running.child.pid}, which still runs`);

    // A copy of a data folder whose postmaster.pid names this server: not that folder's server.
    const otherData = path.join(otherDir, 'data');
    mkdirSync(otherData, { recursive: true });
    writeFileSync(path.join(otherData, 'postmaster.pid'), `${postmaster}\n${pgData}\n`);
    expect(await recoverOrphanedServer(otherDir, () => {})).toEqual({ kind: 'none' });
    expect(existsSync(path.join(otherData, 'postmaster.pid'))).toBe(true);

    expect(isAlive(postmaster)).toBe(true);
    expect(await healthz()).toBe(200);
    await servesDemo();
    await stopCleanly(running);
  }, 60_000);
});
