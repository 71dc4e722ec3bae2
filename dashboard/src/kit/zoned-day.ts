// A calendar day of the workspace (a date input's YYYY-MM-DD) as the instant it starts in the
// workspace's time zone, so a "from/to" filter means the same days whatever zone the browser is in.
// Intl knows every zone's offsets; the offset is read twice because it may differ across midnight's
// neighbourhood (a daylight-saving change).

/** How far `zone`'s wall clock is ahead of UTC at `utcMs`, in milliseconds. */
function offsetAt(utcMs: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(new Date(utcMs));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) - utcMs;
}

/** "2026-03-29", "Europe/Istanbul" -> "2026-03-28T21:00:00.000Z"; `plus` days later (the day after a range's end). */
export function zonedDayStart(day: string, zone: string, plus = 0): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d + plus);
  const first = wall - offsetAt(wall, zone);
  return new Date(wall - offsetAt(first, zone)).toISOString();
}
