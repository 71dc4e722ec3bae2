// What every CSV export shares (docs/decisions.md, "CSV export"): reading a whole list in batches,
// newest first, with keyset paging on (createdAt, id), the lists' own order. Each batch starts after the last row of the one before, through the
// ("workspaceId", "createdAt") index, however deep into the list it is, where an offset would
// read and drop every earlier row again.

import { DateTime } from 'luxon';

/** Rows per database round trip: small enough to stay a few hundred kilobytes. */
export const EXPORT_BATCH = 1000;

/** The condition "after this row" in newest-first order, for any model with createdAt and id. */
export const olderThan = (row: { createdAt: Date; id: string }) => ({ OR: [{ createdAt: { lt: row.createdAt } }, { createdAt: row.createdAt, id: { lt: row.id } }] });

/** One batch's query: the rows of `where` after `after` (none: from the newest), newest first, at most `take`. */
export function batchQuery<Where extends object>(where: Where, after: { createdAt: Date; id: string } | null, take: number) {
  return { where: after ? { AND: [where, olderThan(after)] } : where, orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }], take };
}

/** The columns of `createdCells`, right after each export's token. */
export const CREATED_COLUMNS = ['created_at', 'created_at_local', 'time_zone'] as const;

/** The cells every export starts its rows with: the creation time in UTC, in the workspace's zone, and that zone. */
export function createdCells(row: { createdAt: Date; workspace: { timeZone: string } }) {
  return { created_at: row.createdAt.toISOString(), created_at_local: localIso(row.createdAt, row.workspace.timeZone), time_zone: row.workspace.timeZone };
}

/**
 * Every row `page` gives, batch by batch: `page(after, take)` reads up to `take` rows older than
 * `after` (the first batch: after null), newest first. `signal` stops it between batches.
 */
export async function* keysetRows<Row extends { createdAt: Date; id: string }>(
  page: (after: Row | null, take: number) => Promise<Row[]>,
  signal?: AbortSignal,
  batch = EXPORT_BATCH,
): AsyncGenerator<Row> {
  let after: Row | null = null;
  while (!signal?.aborted) {
    const rows = await page(after, batch);
    yield* rows;
    if (rows.length < batch) return;
    after = rows[rows.length - 1]!;
  }
}

/**
 * A cell a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage
 * return) gets a leading apostrophe, so that opening an export never executes what a shopper or
 * merchant typed into a reference, a description or a card holder's name.
 */
export function inertCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** An instant as ISO 8601 with the offset of `timeZone` (2026-03-04T12:00:00.000+03:00). */
export const localIso = (at: Date, timeZone: string): string => DateTime.fromJSDate(at, { zone: timeZone }).toISO() ?? '';
