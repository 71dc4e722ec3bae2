// The CLI reaches the database `npm start` uses: DATABASE_URL (migrated with DATABASE_OWNER_URL
// when set), or the embedded PostgreSQL in DATA_DIR/pg; like the gateway, it migrates as the owner
// and works with the serving role. When a gateway already runs on that data dir its server is up
// and is reused; otherwise (also when only an orphan of a killed process runs) the CLI starts the
// server itself and stops it again when done.
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config.ts';
import type { CliOutput } from './io.ts';
import { createDb, type Db } from '../db/client.ts';
import { embeddedUrls, readEmbeddedSettings, startEmbeddedPostgres, type EmbeddedDatabase, type StoredSettings } from '../db/embedded.ts';
import { recoverOrphanedServer } from '../db/orphaned-server.ts';
import { configuredUrls, prepareDatabase, type DatabaseUrls } from '../db/migrate.ts';
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
  let urls = config.DATABASE_URL ? configuredUrls(config.DATABASE_URL, config.DATABASE_OWNER_URL) : null;
  if (!urls) {
    const dir = path.join(config.dataDir, 'pg');
    // A server a killed gateway or CLI left behind is stopped, not reused: nobody would stop it.
    await recoverOrphanedServer(dir);
    urls = await runningEmbeddedUrls(dir, config.EMBEDDED_PG_PORT);
    if (!urls) {
      embedded = await startEmbeddedPostgres({ dir, port: config.EMBEDDED_PG_PORT, database: EMBEDDED_DATABASE });
      urls = embedded.urls;
    }
  }
  let db: Db | null = null;
  try {
    await prepareDatabase(urls);
    // The commands work on rows, as the gateway does: with the serving role.
    db = createDb(urls.serving, { max: 2 });
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

/** The URLs of an embedded server already running on `dir` (started by `npm start`), else null. */
async function runningEmbeddedUrls(dir: string, port: number): Promise<DatabaseUrls | null> {
  let settings: StoredSettings | null;
  try {
    settings = readEmbeddedSettings(dir);
  } catch {
    return null;
  }
  if (!settings) return null;
  const admin = new pg.Client({ connectionString: embeddedUrls(settings, port, 'postgres').owner, connectionTimeoutMillis: 2_000 });
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
  return embeddedUrls(settings, port, EMBEDDED_DATABASE);
}
