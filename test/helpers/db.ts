// A fresh, migrated database per test file, copied from the template the global setup made.
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
