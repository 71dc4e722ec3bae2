// Raw SQL (a Prisma.Sql built with Prisma.sql), one way for every caller: `queryRows` and
// `executeRows`. Sent from the root client, a statement goes straight to the client's own pg pool
// (the one its driver adapter uses): the Prisma client's raw path spent about a fifth of a
// payment's gateway CPU serialising the parameters, wrapping the call in its engine and mapping
// the rows back (docs/decisions.md, "Raw SQL goes straight to the pool"; docs/performance.md,
// "Raw SQL on the pool"). Inside an interactive transaction the statement must run on that
// transaction's connection, which only the transaction client knows: there it goes through
// `$queryRaw`.
//
// Both paths take the same values and give back the same JavaScript types (test/db/raw.test.ts):
// dates are sent and read as UTC (`timestamp` columns hold UTC, as the model API writes them),
// int8 is a bigint, numeric a Prisma.Decimal, arrays of these the same.
import pg from 'pg';
import { Prisma } from '../generated/prisma/client.ts';
import { directPathOf, type DirectPath, type Tx } from './client.ts';

export interface RawOptions {
  /**
   * Sent unnamed: PostgreSQL plans it for its values each time instead of keeping a prepared
   * statement, whose plan may turn generic after five runs (one plan for any values). For a long
   * statement whose best plan depends on its values (the rule tester's), planning is cheap and a
   * generic plan was not: it made one condition three times slower than its custom plan.
   */
  unnamed?: boolean;
}

/** The rows of a raw statement. */
export async function queryRows<T>(db: Tx, sql: Prisma.Sql, options: RawOptions = {}): Promise<T[]> {
  const path = directPathOf(db);
  if (!path) return db.$queryRaw<T[]>(sql);
  return (await send(path, sql, options)).rows as T[];
}

/** A raw statement's count of rows written. */
export async function executeRows(db: Tx, sql: Prisma.Sql): Promise<number> {
  const path = directPathOf(db);
  if (!path) return db.$executeRaw(sql);
  return (await send(path, sql)).rowCount ?? 0;
}

async function send(path: DirectPath, sql: Prisma.Sql, options: RawOptions = {}): Promise<pg.QueryResult> {
  const text = sql.text;
  // The adapter's names: a connection prepares each text once, whichever path sent it first.
  const name = options.unnamed ? undefined : path.statementName({ sql: text }) || undefined;
  const result = await path.pool.query({ name, text, values: sql.values.map(toParameter), types: TYPES });
  path.onQuery?.(text);
  return result;
}

/** A value as the driver adapter sends it: dates as UTC text (pg's own would use local time). */
function toParameter(value: unknown): unknown {
  // Most values are text, numbers or null: answered before the (costlier) class checks.
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object') return value;
  if (value instanceof Date) return utcTimestamp(value);
  if (Prisma.Decimal.isDecimal(value)) return value.toString();
  if (Array.isArray(value)) return value.map(toParameter);
  return value;
}

/** `YYYY-MM-DD HH:MM:SS.mmm` in UTC, without a zone: the adapter's format for a date parameter. */
const utcTimestamp = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '');

// PostgreSQL type ids whose text the Prisma client reads differently from pg's defaults.
const INT8 = 20;
const INT8_ARRAY = 1016;
const DATE = 1082;
const TIMESTAMP = 1114;
const TIMESTAMP_ARRAY = 1115;
const NUMERIC = 1700;
const NUMERIC_ARRAY = 1231;

/** `timestamp` (without time zone) holds UTC here; pg would read it as local time. */
const utcDate = (text: string) => new Date(`${text.replace(' ', 'T')}Z`);

const parseArray = pg.types.getTypeParser(INT8_ARRAY as never) as unknown as (text: string) => unknown[];
const arrayOf = (parse: (text: string) => unknown) => {
  // pg's int8[] parser yields the elements as text (or null); each is then read as one element.
  return (text: string) => parseArray(text).map((v) => (v === null ? null : parse(String(v))));
};

const PARSERS: Record<number, (text: string) => unknown> = {
  [INT8]: (text) => BigInt(text),
  [INT8_ARRAY]: arrayOf((text) => BigInt(text)),
  [DATE]: (text) => new Date(`${text}T00:00:00Z`),
  [TIMESTAMP]: utcDate,
  [TIMESTAMP_ARRAY]: arrayOf(utcDate),
  [NUMERIC]: (text) => new Prisma.Decimal(text),
  [NUMERIC_ARRAY]: arrayOf((text) => new Prisma.Decimal(text)),
};

const TYPES = {
  getTypeParser: ((oid: number, format?: string) => (format !== 'binary' && PARSERS[oid]) || pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};
