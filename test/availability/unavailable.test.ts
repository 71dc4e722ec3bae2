// The one rule for "the database cannot be reached" (src/db/unavailable.ts), on errors produced
// for real: a port where nothing listens, through pg and through Prisma; and errors of a working
// database (a bad statement, a unique violation), which are not unavailability.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseBusy } from '../../src/db/busy.ts';
import { createDb, poolOf, type Db } from '../../src/db/client.ts';
import { isDatabaseUnavailable } from '../../src/db/unavailable.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { freePort } from '../helpers/ports.ts';

let nowhere: string;
let live: Db;

beforeAll(async () => {
  nowhere = `postgresql://postgres:x@127.0.0.1:${await freePort()}/gateway`;
  live = createDb(await createTestDatabase());
});
afterAll(() => live?.$disconnect());

const caught = (p: Promise<unknown>) => p.then(() => null, (err: unknown) => err);

describe('isDatabaseUnavailable', () => {
  it('a refused connection, from pg and from Prisma (models, raw statements, transactions)', async () => {
    const client = new pg.Client({ connectionString: nowhere });
    const db = createDb(nowhere);
    try {
      const errors = [
        await caught(client.connect()),
        await caught(db.workspace.count()),
        await caught(db.$queryRawUnsafe('SELECT 1')),
        await caught(db.$transaction(async (tx) => tx.workspace.count())),
      ];
      for (const err of errors) {
        expect(err).not.toBeNull();
        expect(isDatabaseUnavailable(err), String(err)).toBe(true);
        expect(isDatabaseBusy(err)).toBe(true);
      }
    } finally {
      await db.$disconnect();
    }
  });

  it('a session ended by the server (57P01, as a fast shutdown does), from pg and from Prisma', async () => {
    const url = await createTestDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    client.on('error', () => {});
    const db = createDb(url);
    try {
      const fromPg = caught(client.query('SELECT pg_sleep(5)::text AS pg_side'));
      const fromPrisma = caught(db.$transaction(async (tx) => tx.$queryRawUnsafe('SELECT pg_sleep(5)::text AS prisma_side')));
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        for (let ended = 0; ended < 2; ) {
          const { rows } = await admin.query<{ ended: boolean }>(`SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(5)::text AS %'`);
          ended += rows.length;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } finally {
        await admin.end();
      }
      for (const err of [await fromPg, await fromPrisma]) {
        expect(err).not.toBeNull();
        expect(isDatabaseUnavailable(err), String(err)).toBe(true);
      }
    } finally {
      await client.end().catch(() => {});
      await db.$disconnect();
    }
  });

  it('a write on a read-only server (25006, as a demoted primary answers), from pg and from Prisma (models, raw, transactions)', async () => {
    const url = await createTestDatabase();
    const client = new pg.Client({ connectionString: url, options: '-c default_transaction_read_only=on' });
    await client.connect();
    const db = createDb(url.replace(/$/, '?options=-c%20default_transaction_read_only%3Don'));
    try {
      const errors = [
        await caught(client.query("CREATE TABLE ro_probe (id int)")),
        await caught(db.workspace.create({ data: { slug: 'ro', name: 'ro' } })),
        await caught(db.$executeRawUnsafe("UPDATE \"Workspace\" SET name = 'x'")),
        await caught(db.$transaction(async (tx) => tx.workspace.deleteMany({}))),
      ];
      for (const err of errors) {
        expect(err).not.toBeNull();
        expect(String(err)).toMatch(/read-only transaction|25006/);
        expect(isDatabaseUnavailable(err), String(err)).toBe(true);
      }
      // Reads on such a server are fine: the gateway is not told the database is gone.
      expect(await db.workspace.count()).toBe(0);
    } finally {
      await client.end();
      await db.$disconnect();
    }
  });

  it("a connection lost while checked out of the client's pool and idle does not end the process; the pool replaces it", async () => {
    const url = await createTestDatabase();
    const db = createDb(url);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // Checked out as a transaction or a LISTEN holds it: pg-pool no longer listens for its errors,
      // and an 'error' event nobody listens to ends the process (vitest counts it as a failure).
      const client = await poolOf(db)!.connect();
      await client.query("SET application_name = 'lost-while-out'");
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'lost-while-out'");
      await new Promise((resolve) => setTimeout(resolve, 300));
      const err = await caught(client.query('SELECT 1'));
      expect(isDatabaseUnavailable(err), String(err)).toBe(true);
      client.release(err as Error);
      expect(await db.workspace.count()).toBe(0);
    } finally {
      await admin.end();
      await db.$disconnect();
    }
  });

  it('errors of a database that answers are not unavailability', async () => {
    const syntax = await caught(live.$queryRawUnsafe('SELEC 1'));
    const missing = await caught(live.$queryRawUnsafe('SELECT * FROM no_such_table'));
    for (const err of [syntax, missing, new Error('Invalid input'), { code: 'P2002' }, null, 'text']) expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
