// Money and instants for the search, customer and timeline screens: the kit's Intl formatters
// (kit/money.ts, kit/dates.ts) under the names these screens already use.
import { useDates } from '../kit/dates.ts';

export { useMoney } from '../kit/money.ts';

/** An instant as a date and time with seconds in `timeZone` (the workspace's), or the reader's own zone. */
export function useInstant(timeZone?: string | null): (iso: string | null | undefined) => string {
  return useDates(timeZone).dateTime;
}
