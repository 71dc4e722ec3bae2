// The payments list's filters as the API takes them. Days are the workspace's calendar days (the
// list shows times in its zone), so "from 4 March" starts at midnight there, not in the browser.
import type { PaymentMoneyStatus, PaymentStatus } from '../schema-enums.ts';
import { statusValues, type StatusKind } from '../kit/status.ts';
import { zonedDayStart } from '../kit/zoned-day.ts';

export interface Filters { status: PaymentStatus | ''; paymentStatus: PaymentMoneyStatus | ''; from: string; to: string; reference: string; lastFour: string }
export const NO_FILTERS: Filters = { status: '', paymentStatus: '', from: '', to: '', reference: '', lastFour: '' };

export function toFilter(f: Filters, timeZone: string | null) {
  return {
    status: f.status ? [f.status] : undefined,
    paymentStatus: f.paymentStatus ? [f.paymentStatus] : undefined,
    channelReference: f.reference || undefined,
    cardLastFour: f.lastFour || undefined,
    created: f.from || f.to
      ? { from: f.from ? dayStart(f.from, timeZone).toISOString() : undefined, to: f.to ? new Date(dayStart(f.to, timeZone, 1).getTime() - 1).toISOString() : undefined }
      : undefined,
  };
}

/** Midnight starting YYYY-MM-DD (plus `plusDays`) in `timeZone` (the browser's when null). */
export function dayStart(day: string, timeZone: string | null, plusDays = 0): Date {
  if (timeZone) return new Date(zonedDayStart(day, timeZone, plusDays));
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + plusDays);
}

/** The schema's values of an enum in the kit's order of meaning (a value the kit lacks goes last). */
export function inKitOrder<T extends string>(kind: StatusKind, values: readonly T[]): T[] {
  const order = statusValues(kind);
  const rank = (v: T) => (order.indexOf(v) + order.length + 1) % (order.length + 1);
  return [...values].sort((a, b) => rank(a) - rank(b));
}
