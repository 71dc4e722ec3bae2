// The CLI reaches the database `npm start` uses: DATABASE_URL, or the embedded PostgreSQL in
// DATA_DIR/pg. When a gateway already runs on that data dir its server is up and is reused;
// otherwise (also when only an orphan of a killed process runs) the CLI starts the server itself
// and stops it again when done.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config.ts';
import type { CliOutput } from './context.ts';
import { createDb, type Db } from '../db/client.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded.ts';
import { recoverOrphanedServer } from '../db/orphaned-server.ts';
import { migrate } from '../db/migrate.ts';
import { createLogger } from '../logger.ts';
import { openMasterKey } from '../master-key.ts';

export interface CliDatabase {
  db: Db;
  masterKey: Buffer;
  close(): Promise<void>;
}

const EMBEDDED_DATABASE = 'gateway';

export async function openDatabase(config: Config, stderr: CliOutput): Promise<CliDatabase> {
  let embedded: EmbeddedDatabase | null = null;
  let url = config.DATABASE_URL;
  if (!url) {
    const dir = path.join(config.dataDir, 'pg');
    // A server a killed gateway or CLI left behind is stopped, not reused: nobody would stop it.
    await recoverOrphanedServer(dir);
    url = (await runningEmbeddedUrl(dir, config.EMBEDDED_PG_PORT)) ?? undefined;
    if (!url) {
      embedded = await startEmbeddedPostgres({ dir, port: config.EMBEDDED_PG_PORT, database: EMBEDDED_DATABASE });
      url = embedded.url;
    }
  }
  let db: Db | null = null;
  try {
    await migrate(url);
    db = createDb(url, { max: 2 });
    const opened = db;
    // Before any command runs: a key the database was not written with is refused, nothing written.
    // Warnings (a generated master key) go to stderr so --json output stays parseable.
    const masterKey = await openMasterKey(config, opened, createLogger('warn', (line) => stderr.write(line + '\n')));
    return {
      db: opened,
      masterKey,
      close: async () => {
        await opened.$disconnect();
        await embedded?.stop();
      },
    };
  } catch (err) {
    await db?.$disconnect().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw err;
  }
}

/** The URL of an embedded server already running on `dir` (started by `npm start`), else null. */
async function runningEmbeddedUrl(dir: string, port: number): Promise<string | null> {
  const settingsFile = path.join(dir, 'settings.json');
  if (!existsSync(settingsFile)) return null;
  let password: string;
  try {
    password = (JSON.parse(readFileSync(settingsFile, 'utf8')) as { password: string }).password;
  } catch {
    return null;
  }
  const base = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  const admin = new pg.Client({ connectionString: `${base}/postgres`, connectionTimeoutMillis: 2_000 });
  admin.on('error', () => {});
  try {
    await admin.connect();
  } catch {
    return null;
  }
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DATABASE]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${EMBEDDED_DATABASE}"`);
  } finally {
    await admin.end();
  }
  return `${base}/${EMBEDDED_DATABASE}`;
}
