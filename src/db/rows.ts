// Single-row INSERT / UPDATE / upsert ... RETURNING (all or some columns), multi-row INSERT and UPDATE, sent
// raw (raw.ts), for the rows every payment writes (the payment, its customer, the webhook
// notifications of its event). Through the model API the client spends about 2.5 ms of the
// gateway's CPU on a payment.create, about 1 ms on an upsert or update and about 2 ms on a
// notification.createMany of one row (rendering and mapping columns in its query interpreter),
// against 0.5-0.8 ms for the same statement sent raw (docs/performance.md, "Raw row writes").
// Everything else keeps the model API.
//
// Column names are the model's field names (the schema maps none), so a row comes back as the
// model's type. Values go as parameters; PostgreSQL types each one from its column, so uuids and
// enums need no casts, and dates go as UTC like the model API sends them.
import { randomUUID } from 'node:crypto';
import { Prisma } from '../generated/prisma/client.ts';
import type { Tx } from './client.ts';
import { executeRows, queryRows } from './raw.ts';

/** Tables written here; each has a uuid `id` key. */
export type RowTable = 'Payment' | 'Customer' | 'Notification';

/** Tables whose model has an `@updatedAt` column, which the model API sets on every write. */
const STAMPED: ReadonlySet<RowTable> = new Set(['Payment', 'Customer']);

/** Some of a model's columns, with their values; `undefined` leaves a column out. */
export type Columns<T> = { [K in keyof T]?: T[K] };

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9]*$/;

/** Quoted names made so far: a payment's statements name some seventy columns, the same each time. */
const quoted = new Map<string, Prisma.Sql>();

/** A quoted column or table name; names come from our code, the check keeps it that way. */
function ident(name: string): Prisma.Sql {
  let sql = quoted.get(name);
  if (sql === undefined) {
    if (!IDENTIFIER.test(name)) throw new Error(`rows: not a column name: ${name}`);
    quoted.set(name, (sql = Prisma.raw(`"${name}"`)));
  }
  return sql;
}

const given = <T>(values: Columns<T>) => Object.entries(values).filter(([, v]) => v !== undefined);

/** What the model API fills in on its own, where the caller did not: `updatedAt` now. */
function stamped<T>(table: RowTable, values: Columns<T>): Columns<T> {
  const row = values as Record<string, unknown>;
  return STAMPED.has(table) && row.updatedAt === undefined ? ({ ...row, updatedAt: new Date() } as unknown as Columns<T>) : values;
}

/** A new row: a fresh `id` and `updatedAt` unless given. */
function created<T>(table: RowTable, values: Columns<T>): Columns<T> {
  const row = values as Record<string, unknown>;
  return stamped(table, (row.id === undefined ? { ...row, id: randomUUID() } : row) as Columns<T>);
}

const names = (entries: Array<[string, unknown]>) => Prisma.join(entries.map(([k]) => ident(k)));
const params = (entries: Array<[string, unknown]>) => Prisma.join(entries.map(([, v]) => v));
const assignments = (entries: Array<[string, unknown]>) => Prisma.join(entries.map(([k, v]) => Prisma.sql`${ident(k)} = ${v}`));

/**
 * The columns a statement returns: all of them, or only those the caller reads. Each returned
 * column costs the pg driver and the Prisma client a share of a call's CPU (its description and
 * value parsed, mapped and collected), and a payment row has some fifty.
 */
function returning(columns?: readonly string[]): Prisma.Sql {
  return columns ? Prisma.sql`RETURNING ${Prisma.join(columns.map(ident))}` : Prisma.sql`RETURNING *`;
}

/** INSERT of one row; `id` and `updatedAt` are filled in unless given, as the model API does. */
export async function insertRow<T, K extends keyof T & string = keyof T & string>(tx: Tx, table: RowTable, values: Columns<T>, columns?: readonly K[]): Promise<Pick<T, K>> {
  const cols = given(created(table, values));
  const [row] = await queryRows<Pick<T, K>>(tx, Prisma.sql`INSERT INTO ${ident(table)} (${names(cols)}) VALUES (${params(cols)}) ${returning(columns)}`);
  return row!;
}

/** INSERT of several rows with the same columns (those of the first row); returns how many. */
export async function insertRows<T>(tx: Tx, table: RowTable, rows: Array<Columns<T>>): Promise<number> {
  if (rows.length === 0) return 0;
  const complete = rows.map((row) => created(table, row));
  const cols = given(complete[0]!).map(([k]) => k);
  const tuples = complete.map((row) => {
    const values = new Map(given(row));
    // A column missing from one row would be written NULL there, not its default.
    if (values.size !== cols.length || !cols.every((k) => values.has(k))) throw new Error(`rows: ${table} rows must have the same columns`);
    return Prisma.sql`(${Prisma.join(cols.map((k) => values.get(k)))})`;
  });
  return executeRows(tx, Prisma.sql`INSERT INTO ${ident(table)} (${Prisma.join(cols.map(ident))}) VALUES ${Prisma.join(tuples)}`);
}

/**
 * UPDATE of the row with this id, `updatedAt` included; throws when there is none (as the model
 * API's update does). Returns the row, or only `columns` of it.
 */
export async function updateRow<T, K extends keyof T & string = keyof T & string>(tx: Tx, table: RowTable, id: string, values: Columns<T>, columns?: readonly K[]): Promise<Pick<T, K>> {
  const [row] = await queryRows<Pick<T, K>>(tx, updateRowSql(table, id, values, columns));
  if (!row) throw new Error(`rows: no ${table} ${id} to update`);
  return row;
}

/**
 * updateRow's statement, for one that does more after it (events.ts: a change and its event). With
 * `whileStatus`, the row changes only while its status is one of those (a write that must happen
 * once: a retry after a COMMIT that did land finds nothing to change).
 */
export function updateRowSql<T>(table: RowTable, id: string, values: Columns<T>, columns?: ReadonlyArray<keyof T & string>, whileStatus?: readonly string[]): Prisma.Sql {
  const guard = whileStatus ? Prisma.sql` AND status::text = ANY(${[...whileStatus]}::text[])` : Prisma.empty;
  return Prisma.sql`UPDATE ${ident(table)} SET ${assignments(given(stamped(table, values)))} WHERE id = ${id}::uuid${guard} ${returning(columns)}`;
}

/** One row's change in updateRowsSql. */
export interface RowChange<T> {
  id: string;
  values: Columns<T>;
}

/**
 * UPDATE of several rows, each with its own values, in one statement (gathered settlements,
 * domain/payments/settle.ts). The values travel as one JSON array and take the table's own column
 * types (`jsonb_populate_record` with the table's row type), so the text depends only on which
 * columns some row sets; a column a row leaves out keeps its value there (the `?` test on that
 * row's object). The rows go in id order (the order a nested loop over them locks them in), so
 * that two such statements are less likely to wait on each other. Returns the changed rows (their
 * `columns`, `id` always included).
 */
export function updateRowsSql<T>(table: RowTable, rows: ReadonlyArray<RowChange<T>>, columns: ReadonlyArray<keyof T & string>, whileStatus?: readonly string[]): Prisma.Sql {
  const objects = [...rows]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map(({ id, values }) => ({ ...Object.fromEntries(given(stamped(table, values)).map(([k, v]) => [k, jsonValue(v)])), id }));
  const set = [...new Set(objects.flatMap((o) => Object.keys(o)))].filter((k) => k !== 'id').sort();
  const assign = set.map((k) => Prisma.sql`${ident(k)} = CASE WHEN j ? ${Prisma.raw(`'${k}'`)} THEN v.${ident(k)} ELSE t.${ident(k)} END`);
  const guard = whileStatus ? Prisma.sql` AND t.status::text = ANY(${[...whileStatus]}::text[])` : Prisma.empty;
  const returned = [...new Set(['id', ...columns])].map((k) => Prisma.sql`t.${ident(k)}`);
  return Prisma.sql`UPDATE ${ident(table)} t SET ${Prisma.join(assign)}
    FROM jsonb_array_elements(${JSON.stringify(objects)}::jsonb) j, jsonb_populate_record(NULL::${ident(table)}, j) v
    WHERE t.id = v.id${guard} RETURNING ${Prisma.join(returned)}`;
}

/** A column's value as JSON that its column type reads back: dates as UTC, like the parameters (raw.ts). */
function jsonValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace('T', ' ').replace('Z', '');
  if (typeof value === 'bigint' || Prisma.Decimal.isDecimal(value)) return value.toString();
  return value;
}

/**
 * A row to INSERT, or on a clash of its `conflict` key to UPDATE with `update` (and `updatedAt`).
 * An empty `update` leaves the stored row as it is (and still returns it), as the model API's
 * upsert does. Given as data so that it can also lead another row's write (`insertRowUnder`).
 */
export interface Upsert<T> {
  table: RowTable;
  conflict: Array<keyof T & string>;
  insert: Columns<T>;
  update: Columns<T>;
}

/** `after`: a CTE of the statement, read whole (counted) before the row is written or locked. */
function upsertSql<T>({ table, conflict, insert, update }: Upsert<T>, after?: string): Prisma.Sql {
  const cols = given(created(table, insert));
  const changes = given(update).length > 0 ? given(stamped(table, update)) : [];
  // A no-op assignment: ON CONFLICT DO NOTHING would not return the stored row.
  const set = changes.length > 0 ? assignments(changes) : Prisma.sql`${ident(conflict[0]!)} = EXCLUDED.${ident(conflict[0]!)}`;
  const source = after ? Prisma.sql`SELECT ${params(cols)} FROM (SELECT count(*) FROM ${Prisma.raw(after)}) first` : Prisma.sql`VALUES (${params(cols)})`;
  return Prisma.sql`
    INSERT INTO ${ident(table)} (${names(cols)}) ${source}
    ON CONFLICT (${Prisma.join(conflict.map(ident))}) DO UPDATE SET ${set}
    RETURNING *`;
}

export async function upsertRow<T>(tx: Tx, upsert: Upsert<T>): Promise<T> {
  const [row] = await queryRows<T>(tx, upsertSql(upsert));
  return row!;
}

/** Every column of a table, from the generated client (the schema maps no names). */
const COLUMNS: Record<RowTable, readonly string[]> = {
  Payment: Object.values(Prisma.PaymentScalarFieldEnum),
  Customer: Object.values(Prisma.CustomerScalarFieldEnum),
  Notification: Object.values(Prisma.NotificationScalarFieldEnum),
};

/**
 * Where a row is written under another (a payment under its customer): the parent's upsert and the
 * row's column naming it; `after`, a CTE of the statement that must be read before the parent's row
 * is written or locked (so that the statement takes its locks in one order: risk/guard.ts).
 */
export interface Under<T, P> {
  parent: Upsert<P>;
  key: keyof T & string;
  after?: string;
}

/**
 * The INSERT of one row as the CTE `child` (returning `columns`), led by the CTE `parent` that
 * upserts the row it is written under, when there is one: for a statement that does more
 * (insertRowUnder; the payment's row and the risk count, risk/guard.ts). `columns` undefined: all.
 */
export function insertRowCtes<T, P>(table: RowTable, values: Columns<T>, columns: readonly string[] | undefined, under?: Under<T, P>): Prisma.Sql {
  const cols = given(created(table, values));
  if (!under) return Prisma.sql`child AS (INSERT INTO ${ident(table)} (${names(cols)}) VALUES (${params(cols)}) ${returning(columns)})`;
  if (under.after !== undefined && !IDENTIFIER.test(under.after)) throw new Error(`rows: not a CTE name: ${under.after}`);
  return Prisma.sql`parent AS (${upsertSql(under.parent, under.after)}),
    child AS (INSERT INTO ${ident(table)} (${names(cols)}, ${ident(under.key)}) SELECT ${params(cols)}, parent.id FROM parent ${returning(columns)})`;
}

/**
 * INSERT of one row whose `key` column is the id of the row `parent` writes (a payment under its
 * customer), in one statement: both are written or neither, without a transaction around them.
 * Returns both rows as written, or only the columns named in `columns`.
 */
export async function insertRowUnder<T, P, K extends keyof T & string = keyof T & string, PK extends keyof P & string = keyof P & string>(
  db: Tx,
  parent: Upsert<P>,
  key: keyof T & string,
  table: RowTable,
  values: Columns<T>,
  columns?: { row: readonly K[]; parent: readonly PK[] },
): Promise<{ row: Pick<T, K>; parent: Pick<P, PK> }> {
  // The parent's columns come back under a prefix, each still typed from its column.
  const parentCols = (columns?.parent ?? COLUMNS[parent.table]).map((c) => Prisma.sql`parent.${ident(c)} AS ${Prisma.raw(`"parent.${c}"`)}`);
  const childCols = columns ? Prisma.join(columns.row.map((c) => Prisma.sql`child.${ident(c)}`)) : Prisma.sql`child.*`;
  const [joined] = await queryRows<Record<string, unknown>>(db, Prisma.sql`
    WITH ${insertRowCtes(table, values, columns?.row, { parent, key })}
    SELECT ${childCols}, ${Prisma.join(parentCols)} FROM child, parent`);
  const row: Record<string, unknown> = {};
  const parentRow: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(joined!)) {
    if (column.startsWith('parent.')) parentRow[column.slice('parent.'.length)] = value;
    else row[column] = value;
  }
  return { row: row as Pick<T, K>, parent: parentRow as Pick<P, PK> };
}
