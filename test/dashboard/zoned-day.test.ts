// A workspace day as the instant it starts in the workspace's zone (the audit filter's from/to).
import { describe, expect, it } from 'vitest';
import { zonedDayStart } from '../../dashboard/src/kit/zoned-day.ts';

describe('zonedDayStart', () => {
  it('starts the day at midnight of the zone, whatever zone runs the code', () => {
    expect(zonedDayStart('2026-11-25', 'Europe/Istanbul')).toBe('2026-11-24T21:00:00.000Z');
    expect(zonedDayStart('2026-11-25', 'America/New_York')).toBe('2026-11-25T05:00:00.000Z');
    expect(zonedDayStart('2026-11-25', 'UTC')).toBe('2026-11-25T00:00:00.000Z');
    expect(zonedDayStart('2026-11-25', 'Asia/Kolkata')).toBe('2026-11-24T18:30:00.000Z');
  });

  it('counts `plus` days on the calendar, across a daylight-saving change and a month end', () => {
    // Berlin moves to summer time on 2026-03-29: that day is 23 hours long.
    expect(zonedDayStart('2026-03-29', 'Europe/Berlin')).toBe('2026-03-28T23:00:00.000Z');
    expect(zonedDayStart('2026-03-29', 'Europe/Berlin', 1)).toBe('2026-03-29T22:00:00.000Z');
    expect(zonedDayStart('2026-11-30', 'Europe/Istanbul', 1)).toBe('2026-11-30T21:00:00.000Z');
  });
});
