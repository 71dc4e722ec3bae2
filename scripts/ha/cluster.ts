// The reference high-availability deployment (deploy/ha) run on one machine from Debian's packages:
// etcd, two Patroni nodes (a primary and a synchronous standby of PostgreSQL 15), HAProxy in
// front of whichever node Patroni says is the primary, and two gateway processes as two machines
// would run them (own PORT and DATA_DIR, one DATABASE_URL through HAProxy). `npm run ha -- up`
// and `down` use it, and so does the failover test. Every process is started detached with its
// log under <dir>/logs and its PID in <dir>/state.json, so `down` (or a test's cleanup) stops
// exactly what was started, by PID.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The files an operator adapts; this module only moves their ports and data folders. */
export const DEPLOY_DIR = path.join(ROOT, 'deploy/ha');

/** The programs the deployment needs, from Debian's postgresql-15, patroni, etcd-server and haproxy. */
const PROGRAMS = { etcd: '/usr/bin/etcd', patroni: '/usr/bin/patroni', patronictl: '/usr/bin/patronictl', haproxy: '/usr/sbin/haproxy', postgres: '/usr/lib/postgresql/15/bin/postgres' };

/** Why the deployment cannot run here (a missing package), or null when it can. */
export function missingPackages(): string | null {
  const missing = Object.entries(PROGRAMS).filter(([, file]) => !existsSync(file)).map(([name]) => name);
  return missing.length ? `needs Debian's postgresql-15, patroni, etcd-server and haproxy (missing: ${missing.join(', ')}); apt-get install postgresql-15 patroni etcd-server haproxy` : null;
}

/** Every port the deploy files use; a run moves them all by the same shift (a test uses its own). */
const REFERENCE_PORTS = [2508, 2509, 2532, 2533, 2540, 2541, 2579, 2580];
const GATEWAY_PORTS = [2560, 2561];
export const NODES = ['node1', 'node2'] as const;
export type NodeName = (typeof NODES)[number];

export interface HaOptions {
  /** Where data, logs and the state file go. */
  dir: string;
  /** Added to every port of the deploy files (0: as written). */
  portShift?: number;
  /** SEED_DEMO for the first gateway (the CLI's demo workspace). */
  seedDemo?: boolean;
  /** Extra settings for both gateways. */
  gatewayEnv?: Record<string, string>;
  log?: (line: string) => void;
}

export interface HaState {
  dir: string;
  portShift: number;
  pids: Record<string, number>;
  /** Patroni REST address per node, PostgreSQL port per node. */
  api: Record<NodeName, string>;
  pgPort: Record<NodeName, number>;
  haproxyPort: number;
  databaseUrl: string;
  ownerUrl: string;
  gateways: string[];
}

const shifted = (text: string, shift: number) =>
  text.replace(/\b(25\d\d)\b/g, (port) => (REFERENCE_PORTS.includes(Number(port)) ? String(Number(port) + shift) : port));

/** KEY=VALUE lines of an env file (comments and blank lines skipped). */
export function readEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^\s*([A-Z0-9_]+)=(.*)$/.exec(line);
    if (m) env[m[1]!] = m[2]!.trim();
  }
  return env;
}

/** PostgreSQL refuses to run as root: Patroni runs as `postgres` when this process is root. */
function postgresUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

const statePath = (dir: string) => path.join(dir, 'state.json');

export function readState(dir: string): HaState | null {
  return existsSync(statePath(dir)) ? (JSON.parse(readFileSync(statePath(dir), 'utf8')) as HaState) : null;
}

function saveState(state: HaState): void {
  writeFileSync(statePath(state.dir), JSON.stringify(state, null, 2) + '\n');
}

function startDetached(state: HaState, name: string, command: string, args: string[], opts: { env?: NodeJS.ProcessEnv; user?: { uid: number; gid: number } | null; cwd?: string } = {}): number {
  const logs = path.join(state.dir, 'logs');
  mkdirSync(logs, { recursive: true });
  const out = openSync(path.join(logs, `${name}.log`), 'a');
  const child = spawn(command, args, { cwd: opts.cwd ?? state.dir, env: opts.env ?? process.env, stdio: ['ignore', out, out], detached: true, ...(opts.user ?? {}) });
  closeSync(out);
  child.unref();
  if (!child.pid) throw new Error(`${name} could not be started (${command})`);
  state.pids[name] = child.pid;
  saveState(state);
  return child.pid;
}

/** Starts etcd, both Patroni nodes and HAProxy; resolves once a leader and a synchronous standby run. */
export async function startDatabaseCluster(opts: HaOptions): Promise<HaState> {
  const why = missingPackages();
  if (why) throw new Error(why);
  const shift = opts.portShift ?? 0;
  const dir = path.resolve(opts.dir);
  const log = opts.log ?? (() => {});
  if (readState(dir) && Object.values(readState(dir)!.pids).some(isAlive)) throw new Error(`a deployment is already running from ${dir}: npm run ha -- down`);
  const conf = path.join(dir, 'conf');
  mkdirSync(conf, { recursive: true });
  const gatewayEnv = readEnvFile(path.join(DEPLOY_DIR, 'gateway.env'));
  const databaseUrl = shifted(gatewayEnv.DATABASE_URL!, shift);
  const ownerUrl = shifted(gatewayEnv.DATABASE_OWNER_URL!, shift);
  const state: HaState = {
    dir,
    portShift: shift,
    pids: {},
    api: { node1: `http://127.0.0.1:${2508 + shift}`, node2: `http://127.0.0.1:${2509 + shift}` },
    pgPort: { node1: 2532 + shift, node2: 2533 + shift },
    haproxyPort: 2540 + shift,
    databaseUrl,
    ownerUrl,
    gateways: [],
  };
  saveState(state);

  const etcd = readEnvFile(path.join(DEPLOY_DIR, 'etcd.env'));
  for (const key of Object.keys(etcd)) etcd[key] = shifted(etcd[key]!, shift);
  etcd.ETCD_DATA_DIR = path.join(dir, 'etcd');
  log('starting etcd');
  startDetached(state, 'etcd', PROGRAMS.etcd, [], { env: { ...process.env, ...etcd } });

  const user = postgresUser();
  const pgDir = path.join(dir, 'pg');
  mkdirSync(pgDir, { recursive: true, mode: 0o700 });
  if (user) chownSync(pgDir, user.uid, user.gid);
  for (const node of NODES) {
    const file = path.join(conf, `patroni-${node}.yml`);
    writeFileSync(file, shifted(readFileSync(path.join(DEPLOY_DIR, `patroni-${node}.yml`), 'utf8'), shift));
    log(`starting Patroni ${node}`);
    startPatroni(state, node, user);
  }
  writeFileSync(path.join(conf, 'haproxy.cfg'), shifted(readFileSync(path.join(DEPLOY_DIR, 'haproxy.cfg'), 'utf8'), shift));
  log('starting HAProxy');
  startDetached(state, 'haproxy', PROGRAMS.haproxy, ['-db', '-f', path.join(conf, 'haproxy.cfg')]);

  log('waiting for a leader and a synchronous standby (about 30-60 s on a first start)');
  await waitFor(async () => {
    const members = await clusterMembers(state).catch(() => []);
    return members.some((m) => m.role === 'leader' && m.state === 'running') && members.some((m) => m.role === 'sync_standby' && (m.state === 'streaming' || m.state === 'running'));
  }, 180_000, 'a leader and a synchronous standby');
  await createGatewayDatabase(state);
  return state;
}

/** Patroni for one node (again, after a test stopped the whole node). */
export function startPatroni(state: HaState, node: NodeName, user = postgresUser()): number {
  const env = {
    ...process.env,
    PATRONI_POSTGRESQL_DATA_DIR: path.join(state.dir, 'pg', node),
    PATRONI_POSTGRESQL_PGPASS: path.join(state.dir, 'pg', `${node}.pgpass`),
  };
  return startDetached(state, `patroni-${node}`, PROGRAMS.patroni, [path.join(state.dir, 'conf', `patroni-${node}.yml`)], { env, user });
}

export interface Member {
  name: NodeName;
  role: 'leader' | 'sync_standby' | 'replica' | string;
  state: string;
  host: string;
  port: number;
  lag?: number | string;
}

/** The cluster as Patroni sees it, asked of whichever node answers. */
export async function clusterMembers(state: HaState): Promise<Member[]> {
  let last: unknown;
  for (const node of NODES) {
    try {
      const res = await fetch(`${state.api[node]}/cluster`, { signal: AbortSignal.timeout(2_000) });
      return ((await res.json()) as { members: Member[] }).members;
    } catch (err) {
      last = err;
    }
  }
  throw last;
}

export async function leaderOf(state: HaState): Promise<NodeName | null> {
  const members = await clusterMembers(state).catch(() => []);
  return (members.find((m) => m.role === 'leader' && m.state === 'running')?.name as NodeName | undefined) ?? null;
}

/** The database the gateways serve, its owner and its serving role (passwords from gateway.env). */
async function createGatewayDatabase(state: HaState): Promise<void> {
  const leader = await leaderOf(state);
  const owner = new URL(state.ownerUrl);
  const serving = new URL(state.databaseUrl);
  const database = owner.pathname.slice(1);
  // The local socket (trust in pg_hba): no superuser password leaves the deploy files.
  const client = new pg.Client({ host: '/tmp', port: state.pgPort[leader!], user: 'postgres', database: 'postgres' });
  await client.connect();
  try {
    for (const url of [owner, serving]) {
      const role = decodeURIComponent(url.username);
      const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
      if (exists.rowCount === 0) await client.query(`CREATE ROLE ${client.escapeIdentifier(role)} LOGIN PASSWORD ${client.escapeLiteral(decodeURIComponent(url.password))}`);
    }
    const db = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (db.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)} OWNER ${client.escapeIdentifier(decodeURIComponent(owner.username))}`);
  } finally {
    await client.end();
  }
}

/** The master key both gateways share: gateway.env's, or one made once into <dir>/master-key. */
function masterKey(dir: string): string {
  const configured = readEnvFile(path.join(DEPLOY_DIR, 'gateway.env')).GATEWAY_MASTER_KEY;
  if (configured) return configured;
  const file = path.join(dir, 'master-key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex') + '\n', { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

const INHERITED_NOT = ['BASE_URL', 'NODE_ENV', 'DATABASE_URL', 'DATABASE_OWNER_URL', 'GATEWAY_MASTER_KEY', 'WORKERS', 'SEED_DEMO', 'PORT', 'HOST', 'DATA_DIR', 'LOG_LEVEL'];

/** Gateway `index` (0 or 1): its own PORT and DATA_DIR, the shared DATABASE_URL through HAProxy. */
export function startGateway(state: HaState, index: number, opts: Pick<HaOptions, 'seedDemo' | 'gatewayEnv'> = {}): string {
  const port = GATEWAY_PORTS[index]! + state.portShift;
  // Settings of the calling process (a test runner sets BASE_URL and NODE_ENV) are not the gateway's.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !INHERITED_NOT.includes(name)));
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    DATABASE_URL: state.databaseUrl,
    DATABASE_OWNER_URL: state.ownerUrl,
    GATEWAY_MASTER_KEY: masterKey(state.dir),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(state.dir, `gateway${index + 1}`),
    SEED_DEMO: opts.seedDemo && index === 0 ? 'true' : 'false',
    ...opts.gatewayEnv,
  };
  startDetached(state, `gateway${index + 1}`, process.execPath, ['--import', 'tsx', 'src/main.ts'], { env, cwd: ROOT });
  const url = `http://127.0.0.1:${port}`;
  state.gateways[index] = url;
  saveState(state);
  return url;
}

/** Resolves once gateway `index` answers /healthz with 200; fails at once if its process ended. */
export async function waitForGateway(state: HaState, index: number, timeoutMs = 120_000): Promise<void> {
  const url = state.gateways[index]!;
  const pid = state.pids[`gateway${index + 1}`]!;
  await waitFor(async () => {
    if (!isAlive(pid)) throw new Error(`gateway ${index + 1} exited: ${path.join(state.dir, 'logs', `gateway${index + 1}.log`)} says why`);
    return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) }).catch(() => null))?.status === 200;
  }, timeoutMs, `${url}/healthz answering 200`);
}

/** The postmaster of a node's PostgreSQL (from its postmaster.pid), or null when it is not running. */
export function postmasterOf(state: HaState, node: NodeName): number | null {
  const file = path.join(state.dir, 'pg', node, 'postmaster.pid');
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  return isAlive(pid) ? pid : null;
}

/** A node's postmaster and every server process under it. */
function serverProcessesOf(state: HaState, node: NodeName): number[] {
  const postmaster = postmasterOf(state, node);
  if (!postmaster) return [];
  const ps = spawnSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' }).stdout;
  const children = ps.split('\n').map((l) => l.trim().split(/\s+/).map(Number)).filter(([, ppid]) => ppid === postmaster).map(([pid]) => pid!);
  return [postmaster, ...children];
}

/** `kill -9` of a node's PostgreSQL (the postmaster and its processes), Patroni left running. */
export function killPostgres(state: HaState, node: NodeName): void {
  for (const pid of serverProcessesOf(state, node)) signal(pid, 'SIGKILL');
}

/** The whole node stopped abruptly: `kill -9` of its Patroni and its PostgreSQL. */
export function killNode(state: HaState, node: NodeName): void {
  const servers = serverProcessesOf(state, node);
  signal(state.pids[`patroni-${node}`]!, 'SIGKILL');
  for (const pid of servers) signal(pid, 'SIGKILL');
}

/** A planned switchover to the standby, as an operator makes it (without blocking this process: clients run in it). */
export async function switchover(state: HaState, from: NodeName, to: NodeName): Promise<void> {
  const args = ['-c', path.join(state.dir, 'conf', `patroni-${from}.yml`), 'switchover', '--leader', from, '--candidate', to, '--force'];
  await promisify(execFile)(PROGRAMS.patronictl, args).catch((err: Error & { stderr?: string }) => {
    throw new Error(`patronictl switchover failed: ${err.stderr || err.message}`);
  });
}

/**
 * Stops everything the state file lists, by PID: gateways first (they finish their requests),
 * then HAProxy, Patroni (which stops its PostgreSQL), etcd; whatever is left after a grace
 * period, and any PostgreSQL whose Patroni was killed, gets SIGKILL.
 */
export async function stopAll(dir: string, log: (line: string) => void = () => {}): Promise<void> {
  const state = readState(path.resolve(dir));
  if (!state) return;
  const order = [Object.keys(state.pids).filter((n) => n.startsWith('gateway')), ['haproxy'], NODES.map((n) => `patroni-${n}`), ['etcd']];
  for (const names of order) {
    const pids = names.map((n) => state.pids[n]).filter((pid): pid is number => pid !== undefined && isAlive(pid));
    if (pids.length === 0) continue;
    log(`stopping ${names.join(', ')}`);
    for (const pid of pids) signal(pid, 'SIGTERM');
    await waitFor(() => pids.every((pid) => !isAlive(pid)), 30_000, `${names.join(', ')} stopped`).catch(() => pids.forEach((pid) => signal(pid, 'SIGKILL')));
  }
  for (const node of NODES) {
    const left = serverProcessesOf(state, node);
    if (left.length) log(`stopping the PostgreSQL of ${node}`);
    for (const pid of left) signal(pid, 'SIGKILL');
  }
  state.pids = {};
  saveState(state);
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A dead child not yet reaped still answers kill(0).
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!);
  } catch {
    return false;
  }
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
