// Raw statements from the root client skip the Prisma client (src/db/raw.ts). They must send the
// same values and give back the same JavaScript types as `$queryRaw`, whatever the process's time
// zone; inside a transaction they must run on the transaction's own connection.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseBusy, refusedWhenBusy } from '../../src/db/busy.ts';
import { createDb, poolOf, type Db } from '../../src/db/client.ts';
import { executeRows, queryRows } from '../../src/db/raw.ts';
import { Prisma } from '../../src/generated/prisma/client.ts';
import { createTestDatabase } from '../helpers/db.ts';

let url: string;
let direct: Db;
let viaPrisma: Db;
const statements: string[] = [];
const zone = process.env.TZ;

beforeAll(async () => {
  url = await createTestDatabase();
  direct = createDb(url, { onQuery: (sql) => statements.push(sql) });
  viaPrisma = createDb(url, { direct: false });
  await direct.$executeRawUnsafe('CREATE TABLE raw_probe (id int PRIMARY KEY, at timestamp(3), n bigint)');
});

afterAll(async () => {
  await Promise.all([direct.$disconnect(), viaPrisma.$disconnect()]);
});

afterEach(() => {
  // Assigning undefined would set the text 'undefined', a zone every later test file in this worker
  // (and every browser it starts) would then run in.
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

/** Pool calls made while `fn` runs: the direct path's statements. */
async function poolCalls(db: Db, fn: () => Promise<unknown>): Promise<number> {
  const pool = poolOf(db)!;
  const query = pool.query.bind(pool);
  let calls = 0;
  pool.query = ((...args: Parameters<typeof query>) => {
    calls++;
    return query(...args);
  }) as typeof pool.query;
  try {
    await fn();
  } finally {
    pool.query = query;
  }
  return calls;
}

const at = new Date('2026-03-04T23:30:07.089Z');
const midnight = new Date('2026-03-04T00:00:00.000Z');

/** Every kind of value the gateway's raw statements send and read back. */
const probe = () => Prisma.sql`
  SELECT ${at}::timestamp(3) AS "at", ${at}::timestamptz AS "atZoned", ${midnight}::date AS "day",
         ${[at, midnight]}::timestamp(3)[] AS "ats", ${12_345_678_901n}::bigint AS "big",
         ${[1n, 9_007_199_254_740_993n]}::bigint[] AS "bigs", count(*) AS "count", ${'12.50'}::numeric AS "decimal",
         ${new Prisma.Decimal('0.1')}::numeric AS "decimalParam", ${7}::int AS "int", ${true}::boolean AS "flag",
         ${['a', 'b']}::text[] AS "texts", ${'8f2d3c1e-0b7a-4c2e-9d41-3f6a1b2c4d5e'}::uuid AS "uuid",
         ${JSON.stringify({ a: [1, 'x'] })}::jsonb AS "json", ${null}::text AS "none", 'successful'::"PaymentStatus" AS "status"
    FROM (VALUES (1)) v`;

describe('queryRows', () => {
  it.each(['UTC', 'America/New_York', 'Asia/Tokyo'])('gives back what $queryRaw gives, in time zone %s', async (tz) => {
    process.env.TZ = tz;
    let row: Record<string, unknown> | undefined;
    expect(await poolCalls(direct, async () => ([row] = await queryRows<Record<string, unknown>>(direct, probe())))).toBe(1);
    const [expected] = await viaPrisma.$queryRaw<Array<Record<string, unknown>>>(probe());
    expect(row).toEqual(expected);
    // And those are the values sent, in the types a caller relies on.
    expect(row).toMatchObject({ at, atZoned: at, day: midnight, ats: [at, midnight], big: 12_345_678_901n, bigs: [1n, 9_007_199_254_740_993n], count: 1n, int: 7, flag: true, texts: ['a', 'b'], json: { a: [1, 'x'] }, none: null, status: 'successful' });
    expect(Prisma.Decimal.isDecimal(row!.decimal) && (row!.decimal as Prisma.Decimal).toString()).toBe('12.5');
    expect((row!.decimalParam as Prisma.Decimal).toString()).toBe('0.1');
  });

  it('writes a date as UTC, as the model API reads it back', async () => {
    process.env.TZ = 'America/New_York';
    expect(await executeRows(direct, Prisma.sql`INSERT INTO raw_probe (id, at, n) VALUES (1, ${at}, ${5n}), (2, ${midnight}, NULL)`)).toBe(2);
    const [written] = await viaPrisma.$queryRaw<Array<{ text: string }>>`SELECT at::text AS text FROM raw_probe WHERE id = 1`;
    expect(written!.text).toBe('2026-03-04 23:30:07.089');
    expect(await queryRows(direct, Prisma.sql`SELECT id, at, n FROM raw_probe ORDER BY id`)).toEqual([{ id: 1, at, n: 5n }, { id: 2, at: midnight, n: null }]);
  });

  it('counts each statement it sends for whoever counts them (onQuery)', async () => {
    const before = statements.length;
    await queryRows(direct, Prisma.sql`SELECT ${1}::int AS one`);
    expect(statements.slice(before)).toEqual(['SELECT $1::int AS one']);
  });

  it('runs on the transaction\'s connection inside a transaction: its row lock is held there', async () => {
    await direct.$executeRawUnsafe('INSERT INTO raw_probe (id) VALUES (3) ON CONFLICT DO NOTHING');
    let other: unknown;
    const calls = await poolCalls(direct, () =>
      direct.$transaction(async (tx) => {
        expect(await queryRows(tx, Prisma.sql`SELECT id FROM raw_probe WHERE id = ${3} FOR UPDATE`)).toEqual([{ id: 3 }]);
        expect(await executeRows(tx, Prisma.sql`UPDATE raw_probe SET n = ${9n} WHERE id = ${3}`)).toBe(1);
        other = await viaPrisma.$queryRaw`SELECT id FROM raw_probe WHERE id = 3 FOR UPDATE NOWAIT`.catch((err: Error) => err);
      }),
    );
    // The lock was taken by the transaction, so another connection could not take it at once.
    expect(String(other)).toMatch(/could not obtain lock|55P03/);
    expect(calls).toBe(0);
    expect(await queryRows(direct, Prisma.sql`SELECT n FROM raw_probe WHERE id = 3`)).toEqual([{ n: 9n }]);
  });

  it('shares the adapter\'s statement names on one connection, so neither path prepares a name the other gave another text', async () => {
    const one = createDb(url, { max: 1 });
    try {
      const first = Prisma.sql`SELECT ${1}::int AS n, 'first' AS which`;
      const second = Prisma.sql`SELECT ${2}::int AS n, 'second' AS which`;
      // Direct, then through the adapter (a transaction), on the pool's only connection, in both orders.
      expect(await queryRows(one, first)).toEqual([{ n: 1, which: 'first' }]);
      await one.$transaction(async (tx) => {
        expect(await queryRows(tx, second)).toEqual([{ n: 2, which: 'second' }]);
        expect(await queryRows(tx, first)).toEqual([{ n: 1, which: 'first' }]);
      });
      expect(await queryRows(one, second)).toEqual([{ n: 2, which: 'second' }]);
      const [prepared] = await queryRows<{ n: bigint }>(one, Prisma.sql`SELECT count(*) AS n FROM pg_prepared_statements WHERE statement LIKE '%AS which'`);
      expect(prepared!.n).toBe(2n);
    } finally {
      await one.$disconnect();
    }
  });

  it('sends a statement unnamed when asked: nothing is prepared, so PostgreSQL plans it for its values every time', async () => {
    const one = createDb(url, { max: 1 });
    try {
      for (let i = 0; i < 7; i++) expect(await queryRows(one, Prisma.sql`SELECT ${i}::int AS n, 'unnamed' AS kind`, { unnamed: true })).toEqual([{ n: i, kind: 'unnamed' }]);
      await queryRows(one, Prisma.sql`SELECT ${1}::int AS n, 'named' AS kind`);
      const prepared = await queryRows<{ statement: string }>(one, Prisma.sql`SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%AS kind'`);
      expect(prepared.map((p) => p.statement)).toEqual([`SELECT $1::int AS n, 'named' AS kind`]);
    } finally {
      await one.$disconnect();
    }
  });

  it('fails as busy when the pool stays full longer than a first write may wait', async () => {
    const small = createDb(url, { max: 1, maxWait: 100 });
    try {
      // The pool's one connection, held by a transaction until released.
      let release!: () => void;
      let started!: () => void;
      const holding = new Promise<void>((resolve) => (started = resolve));
      const held = small.$transaction(() => new Promise<void>((resolve) => ((release = resolve), started())), { maxWait: 10_000, timeout: 10_000 });
      await holding;
      const err = await refusedWhenBusy(small, () => queryRows(small, Prisma.sql`SELECT 1`)).catch((e: unknown) => e);
      release();
      await held;
      expect(isDatabaseBusy(err)).toBe(true);
      // Free again, the same path answers.
      expect(await queryRows(small, Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
    } finally {
      await small.$disconnect();
    }
  });
});
