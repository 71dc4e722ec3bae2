// The gateway as a new user starts it: the node command of `npm start`, flags included, in its
// own process, the embedded PostgreSQL under DATA_DIR, the demo workspace seeded on the first
// start. The process gets its own process group so a Ctrl+C in the terminal reaches only the
// benchmark, which then stops the gateway once, with SIGTERM (the gateway stops its PostgreSQL
// itself). That process is the supervisor (src/cluster.ts) and its WORKERS serving processes are
// its children, so the CPU counted over its process tree (proc-cpu.ts) is the whole gateway's.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMasterKey } from '../../src/domain/secrets.ts';
import { sleep } from './stats.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 60_000;

export interface DemoCredentials {
  base_url: string;
  team: string;
  api_key: string;
  api_secret: string;
  channel_token: string;
  payment_provider_token: string;
}

/** The request limits the benchmark's gateway runs with: on (their cost is measured), never reached. */
export const UNREACHED_LIMITS = { perSecond: 1_000_000, linksPerMinute: 1_000_000 };

export interface GatewaySettings {
  dataDir: string;
  port: number;
  pgPort: number;
  /** Extra environment (e.g. WORKERS); the caller's environment is inherited otherwise. */
  env?: Record<string, string>;
}

/**
 * BENCH_CPU_PROF=<dir>: a process started by the benchmark writes a V8 CPU profile there when it
 * stops (node --cpu-prof). BENCH_NODE_FLAGS: more node flags for it, space-separated (for example
 * `--perf-basic-prof`, so that `perf record -g -p <pid>` names the JavaScript functions; on this
 * saturated 2-core machine perf's on-CPU samples are truer than the V8 profile's, which counts a
 * thread waiting in a system call as busy).
 */
export function benchNodeFlags(): string[] {
  const flags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  return process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`, ...flags] : flags;
}

/**
 * The arguments `npm start` gives node (package.json, scripts.start: `exec node <args>`), so the
 * benchmark measures the gateway with the flags a user's gateway runs with. Spawned directly, not
 * through npm, so that the process tree measured is the gateway's alone.
 */
export function startArgs(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [command, ...args] = pkg.scripts.start.replace(/^exec\s+/, '').split(/\s+/);
  if (command !== 'node') throw new Error(`npm start is not "node <args>": ${pkg.scripts.start}`);
  return args;
}

export class GatewayProcess {
  private child: ChildProcess | null = null;
  private readonly output: string[] = [];
  /** Lines the gateway logged at warn or above (LOG_LEVEL=warn) while the benchmark ran. */
  warnings = 0;

  constructor(readonly settings: GatewaySettings) {}

  get pid(): number {
    if (!this.child?.pid) throw new Error('the gateway is not running');
    return this.child.pid;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.settings.port}`;
  }

  /** What the gateway's own commands (the admin CLI) need to reach the same data and database. */
  env(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...this.settings.env,
      DATA_DIR: this.settings.dataDir,
      PORT: String(this.settings.port),
      HOST: '127.0.0.1',
      EMBEDDED_PG_PORT: String(this.settings.pgPort),
      LOG_LEVEL: 'warn',
      // The benchmark signs its calls with the demo workspace's credentials, whatever NODE_ENV says.
      SEED_DEMO: 'true',
      RATE_LIMIT_PER_SECOND: String(UNREACHED_LIMITS.perSecond),
      RATE_LIMIT_LINKS_PER_MINUTE: String(UNREACHED_LIMITS.linksPerMinute),
    };
    // A benchmark of the default start: its own embedded database, its generated key, its address.
    for (const name of ['DATABASE_URL', 'GATEWAY_MASTER_KEY', 'BASE_URL', 'AGENDA_MONGO_URL']) delete env[name];
    return env;
  }

  async start(): Promise<number> {
    const started = Date.now();
    const child = spawn(process.execPath, [...benchNodeFlags(), ...startArgs()], { cwd: REPO_ROOT, env: this.env(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.child = child;
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        if (/"level":"(warn|error)"/.test(line)) this.warnings++;
        this.output.push(line);
        if (this.output.length > 40) this.output.shift();
      }
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    while (Date.now() - started < START_TIMEOUT_MS) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the gateway exited during start:\n${this.lastOutput()}`);
      if (await this.healthy()) return Date.now() - started;
      await sleep(200);
    }
    throw new Error(`the gateway did not answer /healthz within ${START_TIMEOUT_MS / 1000} s:\n${this.lastOutput()}`);
  }

  private async healthy(): Promise<boolean> {
    try {
      const res = await fetch(`${this.baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      return res.status === 200;
    } catch {
      return false;
    }
  }

  lastOutput(): string {
    return this.output.map((l) => `  | ${l}`).join('\n');
  }

  /** SIGTERM and wait for the exit; SIGKILL only when it does not stop in time. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timedOut = await Promise.race([exited.then(() => false), sleep(STOP_TIMEOUT_MS).then(() => true)]);
    if (timedOut) {
      child.kill('SIGKILL');
      await exited;
      throw new Error(`the gateway did not stop within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM and was killed`);
    }
    if (child.exitCode !== 0) throw new Error(`the gateway exited with ${child.exitCode ?? child.signalCode} on SIGTERM:\n${this.lastOutput()}`);
  }

  /** Last resort from an 'exit' handler: nothing asynchronous can run any more. */
  killNow(): void {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  }

  demoCredentials(): DemoCredentials {
    return JSON.parse(readFileSync(path.join(this.settings.dataDir, 'demo-credentials.json'), 'utf8')) as DemoCredentials;
  }

  /** The master key the gateway generated into DATA_DIR (the benchmark removes GATEWAY_MASTER_KEY). */
  masterKey(): Buffer {
    return parseMasterKey(readFileSync(path.join(this.settings.dataDir, 'master.key'), 'utf8').trim());
  }

  /** The embedded server's superuser URL for `database`, from the password the gateway generated. */
  databaseUrl(database = 'gateway'): string {
    const { password } = JSON.parse(readFileSync(path.join(this.settings.dataDir, 'pg', 'settings.json'), 'utf8')) as { password: string };
    return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${this.settings.pgPort}/${database}`;
  }

  /** The postmaster's pid while the embedded server runs, else null. */
  postgresPid(): number | null {
    const file = path.join(this.settings.dataDir, 'pg', 'data', 'postmaster.pid');
    if (!existsSync(file)) return null;
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  }

  /** `npm run gateway -- --json <args>` against this gateway's data; returns the parsed output. */
  async cli<T>(args: string[]): Promise<T> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', '--json', ...args], { cwd: REPO_ROOT, env: this.env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    if (code !== 0) throw new Error(`gateway ${args.join(' ')} failed (${code}): ${stderr.trim() || stdout.trim()}`);
    return JSON.parse(stdout) as T;
  }
}

/** True while a process with this pid exists (signal 0 only checks). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
