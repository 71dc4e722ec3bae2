// `npm start` (src/main.ts) as a child process on a DATA_DIR with the embedded PostgreSQL, and
// the server processes of that data folder, for tests that stop, kill and start it again.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface GatewayProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface GatewayPlace {
  dataDir: string;
  port: number;
  pgPort: number;
  /** Settings of this start (e.g. WORKERS). */
  env?: Record<string, string>;
}

const CONFIG_NAMES = ['DATABASE_URL', 'DATABASE_OWNER_URL', 'GATEWAY_MASTER_KEY', 'BASE_URL', 'HOST', 'LOG_LEVEL', 'NODE_ENV', 'AGENDA_MONGO_URL', 'SEED_DEMO', 'WORKERS'];

/** The process environment of a gateway or CLI on `place`, without the test run's own settings. */
export function gatewayEnv(place: GatewayPlace): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: place.dataDir, PORT: String(place.port), EMBEDDED_PG_PORT: String(place.pgPort) };
  for (const name of CONFIG_NAMES) delete env[name];
  return { ...env, ...place.env };
}

/** Starts `npm start`; `started` collects it so the test's cleanup can stop it whatever happens. */
export function startGatewayProcess(place: GatewayPlace, started: GatewayProcess[]): GatewayProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env: gatewayEnv(place), stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const running = { child, output: () => text, exited };
  started.push(running);
  return running;
}

export async function waitForOutput(r: GatewayProcess, needle: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void r.exited.then(() => (exited = true));
  while (!r.output().includes(needle)) {
    if (exited) throw new Error(`the gateway exited before printing "${needle}":\n${r.output()}`);
    if (Date.now() > deadline) throw new Error(`no "${needle}" within ${timeoutMs} ms:\n${r.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const pgDataOf = (dataDir: string) => path.join(dataDir, 'pg', 'data');

/** The PID in the data folder's postmaster.pid, or null without one. */
export function postmasterPid(pgData: string): number | null {
  const file = path.join(pgData, 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : null;
}

/** Server processes on the data folder: postmasters started with `-D <pgData>` and their children. */
export function serverProcesses(pgData: string): Array<{ pid: number; args: string }> {
  const ps = execFileSync('ps', ['-eww', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' });
  const rows = ps
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }));
  const postmasters = new Set(rows.filter((r) => r.args.includes(`-D ${pgData}`)).map((r) => r.pid));
  return rows.filter((r) => postmasters.has(r.pid) || postmasters.has(r.ppid)).map(({ pid, args }) => ({ pid, args }));
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A dead child not yet reaped by its new parent still answers kill(0).
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!);
  } catch {
    return false;
  }
}

export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Cleanup whatever failed: every gateway still running (SIGTERM, then SIGKILL), then every server
 * process left on the data folders (fast shutdown, then SIGKILL). Nothing outlives the test.
 */
export async function stopEverything(started: GatewayProcess[], pgDatas: string[]): Promise<void> {
  for (const r of started) {
    if (r.child.exitCode !== null || r.child.signalCode !== null) continue;
    r.child.kill('SIGTERM');
    const done = await Promise.race([r.exited.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 15_000))]);
    if (!done) {
      r.child.kill('SIGKILL');
      await r.exited;
    }
  }
  for (const pgData of pgDatas) {
    for (const [signal, waitMs] of [['SIGINT', 10_000], ['SIGKILL', 5_000]] as const) {
      const left = serverProcesses(pgData);
      if (left.length === 0) break;
      for (const { pid } of left) {
        try {
          process.kill(pid, signal);
        } catch {
          // already gone
        }
      }
      await waitUntil(() => serverProcesses(pgData).every(({ pid }) => !isAlive(pid)), waitMs, `server on ${pgData} stopped`).catch(() => {});
    }
  }
}

/**
 * `npm <args>` (npm start, npm run start:prod) in a process group of its own, as a terminal runs
 * it: a signal can go to npm alone or to the whole group (Ctrl+C). The gateway is npm's child.
 */
export function startNpmProcess(place: GatewayPlace, args: string[], started: GatewayProcess[]): GatewayProcess {
  const child = spawn('npm', args, { cwd: ROOT, env: gatewayEnv(place), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const running = { child, output: () => text, exited };
  started.push(running);
  return running;
}

/** Processes of a process group (empty once every member has exited). */
export function groupMembers(pgid: number): Array<{ pid: number; args: string }> {
  const ps = execFileSync('ps', ['-eww', '-o', 'pid=,pgid=,stat=,args='], { encoding: 'utf8' });
  return ps
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && Number(m[2]) === pgid && !m[3]!.startsWith('Z'))
    .map((m) => ({ pid: Number(m[1]), args: m[4]! }));
}

/** Last resort after a failed test: SIGKILL to every member of the group. */
export function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // the group is gone
  }
}
