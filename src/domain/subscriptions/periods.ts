// Period dates and amounts. Dates are counted from the anchor (the first payment) in the
// workspace time zone, never from the previous end, so a month-end anchor comes back: 31 Jan ->
// 29 Feb (leap year) -> 31 Mar. A yearly anchor on 29 Feb falls on 28 Feb in other years.
import { DateTime } from 'luxon';
import type { Period, Product, SubscriptionItem } from '../../generated/prisma/client.ts';

/** The end of period `n` (1 = the first) of a subscription anchored at `anchor`. */
export function periodEnd(anchor: Date, period: Period, n: number, timeZone: string): Date {
  const start = DateTime.fromJSDate(anchor, { zone: timeZone });
  return (period === 'monthly' ? start.plus({ months: n }) : start.plus({ years: n })).toJSDate();
}

type PricedItem = Pick<SubscriptionItem, 'quantity' | 'firstPeriodUnitAmount'> & { product: Pick<Product, 'amount'> };

/** The first period: unit_amount sent for an item where there is one, else the catalog price. */
export function firstPeriodAmount(items: PricedItem[]): bigint {
  return items.reduce((sum, i) => sum + (i.firstPeriodUnitAmount ?? i.product.amount) * BigInt(i.quantity), 0n);
}

/** Every later period: the catalog price when the period opens (a price change applies from the next period). */
export function catalogAmount(items: PricedItem[]): bigint {
  return items.reduce((sum, i) => sum + i.product.amount * BigInt(i.quantity), 0n);
}
