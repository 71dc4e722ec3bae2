// One real PostgreSQL for the whole run (embedded binaries), a migrated template database that
// every test file copies (the serving role's privileges included, as the gateway grants them), and
// a clean stop at the end: no server outlives `npm test`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { detachEmbeddedSignalHooks, startEmbeddedPostgres } from '../src/db/embedded.ts';
import { prepareDatabase } from '../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    /** The same server as the serving role (embedded.ts, SERVING_ROLE): test gateways serve with it. */
    servingDatabaseUrl: string;
  }
}

export const TEMPLATE_DB = 'gateway_template';

const freePort = (): Promise<number> => getPort({ host: '127.0.0.1' });

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-test-pg-'));
  const db = await startEmbeddedPostgres({ dir, port: await freePort(), persistent: false, database: 'postgres' });
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  await admin.end();
  const template = (url: string) => url.replace(/\/postgres$/, `/${TEMPLATE_DB}`);
  await prepareDatabase({ ...db.urls, owner: template(db.urls.owner), serving: template(db.urls.serving) });
  // Otherwise the library's beforeExit hook exits 0 after vitest set a failing exit code.
  detachEmbeddedSignalHooks();
  project.provide('adminDatabaseUrl', db.url);
  project.provide('servingDatabaseUrl', db.urls.serving);
  return async () => {
    await db.stop();
    // Stopped by us; the library's 'exit' hook would stop it again and throw ("done is not a
    // function"), turning a green run's exit code into 1.
    detachEmbeddedSignalHooks(['exit']);
    rmSync(dir, { recursive: true, force: true });
  };
}
