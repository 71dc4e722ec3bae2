// The date-range selection of the list operations (retrieve-payment-links in the contract; the
// gateway's other retrieve-* lists follow it): YYYY-MM-DD days in the workspace time zone, at
// most 7 days inclusive, the last 7 days including today by default.
import { DateTime } from 'luxon';
import { IssueList, type Path } from './errors.ts';

export const MAX_RANGE_DAYS = 7;

export interface DateRange {
  from: string;
  to: string;
  /** First instant of `from` and first instant after `to`, in UTC. */
  start: Date;
  end: Date;
}

export function parseDateRange(
  input: { createdFrom?: string | null; createdTo?: string | null },
  timeZone: string,
  now: Date,
  base: Path = [],
): DateRange {
  const issues = new IssueList();
  const fromText = input.createdFrom ?? null;
  const toText = input.createdTo ?? null;
  if (fromText === null && toText === null) {
    const today = DateTime.fromJSDate(now, { zone: timeZone }).startOf('day');
    return toRange(today.minus({ days: MAX_RANGE_DAYS - 1 }), today);
  }
  if (fromText === null) issues.add([...base, 'createdFrom'], 'dates_together');
  if (toText === null) issues.add([...base, 'createdTo'], 'dates_together');
  const from = fromText !== null ? parseDay(fromText, timeZone) : null;
  const to = toText !== null ? parseDay(toText, timeZone) : null;
  if (fromText !== null && !from) issues.add([...base, 'createdFrom'], 'date_format');
  if (toText !== null && !to) issues.add([...base, 'createdTo'], 'date_format');
  if (from && to) {
    if (to < from) issues.add([...base, 'createdTo'], 'date_range_order');
    else if (to.diff(from, 'days').days + 1 > MAX_RANGE_DAYS) issues.add([...base, 'createdTo'], 'date_range_too_long');
  }
  issues.throwIfAny();
  return toRange(from!, to!);
}

function parseDay(text: string, zone: string): DateTime | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const day = DateTime.fromISO(text, { zone });
  return day.isValid ? day.startOf('day') : null;
}

function toRange(from: DateTime, to: DateTime): DateRange {
  return {
    from: from.toISODate()!,
    to: to.toISODate()!,
    start: from.toJSDate(),
    end: to.plus({ days: 1 }).startOf('day').toJSDate(),
  };
}

/**
 * The Prisma condition "created in this range": from `start` inclusive to `end` exclusive, either end
 * open when absent. Every list selects by creation time through it (retrieve-* and the dashboard).
 */
export function createdWithin(range: { start?: Date | null; end?: Date | null }): { createdAt: { gte?: Date; lt?: Date } } {
  return { createdAt: { ...(range.start ? { gte: range.start } : {}), ...(range.end ? { lt: range.end } : {}) } };
}

/** End of the given day in the zone, as an instant (payment links' expires_at). */
export function endOfDay(day: string, timeZone: string): Date {
  return DateTime.fromISO(day, { zone: timeZone }).endOf('day').toJSDate();
}
