// A fresh, migrated database per test file, copied from the template the global setup made. Its
// URL is the owner's (a test may change the schema); a gateway serves it as the serving role.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export async function createTestDatabase(): Promise<string> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `t_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE gateway_template`);
  } finally {
    await admin.end();
  }
  return adminUrl.replace(/\/postgres$/, `/${name}`);
}

/** An empty database (no migrations), for tests of the migration runner itself. */
export async function createEmptyDatabase(): Promise<string> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `e_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return adminUrl.replace(/\/postgres$/, `/${name}`);
}

/** The test run's server (its `postgres` database), e.g. for tools that only need a reachable URL. */
export function adminDatabaseUrl(): string {
  return inject('adminDatabaseUrl');
}

/**
 * The same database as `ownerUrl`, as the serving role: what a gateway serves with. A database on
 * another server (a test's own embedded one) is served as given.
 */
export function servingUrl(ownerUrl: string): string {
  const serving = new URL(inject('servingDatabaseUrl'));
  const url = new URL(ownerUrl);
  if (url.host !== serving.host) return ownerUrl;
  url.username = serving.username;
  url.password = serving.password;
  return url.toString();
}

/** Runs schema changes a test makes on purpose (a gateway's serving role may not) as the owner. */
export async function asOwner(ownerUrl: string, ...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    for (const sql of statements) await client.query(sql);
  } finally {
    await client.end();
  }
}
