// The period date rule (counted from the anchor in the workspace time zone) and the test clock's
// durations, without a database.
import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { periodEnd, catalogAmount, firstPeriodAmount } from '../../src/domain/subscriptions/periods.ts';
import { parseDuration } from '../../src/domain/subscriptions/test-clock.ts';

const IST = 'Europe/Istanbul';
/** Wall-clock time in Istanbul, as ISO with its offset. */
const local = (d: Date, zone = IST) => DateTime.fromJSDate(d, { zone }).toISO({ suppressMilliseconds: true });
const at = (iso: string, zone = IST) => DateTime.fromISO(iso, { zone }).toJSDate();

describe('monthly periods keep the anchor day', () => {
  it('31 Jan -> 29 Feb (leap year) -> 31 Mar -> 30 Apr -> 31 May', () => {
    const anchor = at('2024-01-31T10:15:00');
    expect([1, 2, 3, 4].map((n) => local(periodEnd(anchor, 'monthly', n, IST)))).toEqual([
      '2024-02-29T10:15:00+03:00',
      '2024-03-31T10:15:00+03:00',
      '2024-04-30T10:15:00+03:00',
      '2024-05-31T10:15:00+03:00',
    ]);
  });

  it('31 Jan -> 28 Feb outside a leap year', () => {
    expect(local(periodEnd(at('2023-01-31T09:00:00'), 'monthly', 1, IST))).toBe('2023-02-28T09:00:00+03:00');
  });

  it('30 Jan keeps the 30th after February', () => {
    const anchor = at('2024-01-30T00:00:00');
    expect([1, 2].map((n) => local(periodEnd(anchor, 'monthly', n, IST)))).toEqual(['2024-02-29T00:00:00+03:00', '2024-03-30T00:00:00+03:00']);
  });

  it('12 months later is the anchor day a year later, across a year end', () => {
    const anchor = at('2024-11-30T23:30:00');
    expect(local(periodEnd(anchor, 'monthly', 3, IST))).toBe('2025-02-28T23:30:00+03:00');
    expect(local(periodEnd(anchor, 'monthly', 12, IST))).toBe('2025-11-30T23:30:00+03:00');
  });

  it('counts days in the workspace time zone: 31 Jan 01:00 in Istanbul is still 30 Jan in UTC', () => {
    const anchor = at('2024-01-31T01:00:00');
    expect(anchor.toISOString()).toBe('2024-01-30T22:00:00.000Z');
    expect(local(periodEnd(anchor, 'monthly', 1, IST))).toBe('2024-02-29T01:00:00+03:00');
    // Counted in UTC it would have ended on 29 Feb 22:00 UTC = 1 Mar in Istanbul, a day late.
    expect(periodEnd(anchor, 'monthly', 1, IST).toISOString()).toBe('2024-02-28T22:00:00.000Z');
  });

  it('keeps the wall-clock time across a daylight-saving change', () => {
    const zone = 'Europe/Berlin';
    const anchor = at('2024-03-15T09:00:00', zone);
    expect(local(periodEnd(anchor, 'monthly', 1, zone), zone)).toBe('2024-04-15T09:00:00+02:00');
  });
});

describe('yearly periods add a year', () => {
  it('29 Feb -> 28 Feb of the next years -> 29 Feb again in the next leap year', () => {
    const anchor = at('2024-02-29T12:00:00');
    expect([1, 2, 3, 4].map((n) => local(periodEnd(anchor, 'yearly', n, IST)))).toEqual([
      '2025-02-28T12:00:00+03:00',
      '2026-02-28T12:00:00+03:00',
      '2027-02-28T12:00:00+03:00',
      '2028-02-29T12:00:00+03:00',
    ]);
  });

  it('an ordinary day stays that day', () => {
    expect(local(periodEnd(at('2024-07-10T08:00:00'), 'yearly', 1, IST))).toBe('2025-07-10T08:00:00+03:00');
  });
});

describe('period amounts', () => {
  const items = [
    { quantity: 2, firstPeriodUnitAmount: 4990n, product: { amount: 9990n } },
    { quantity: 1, firstPeriodUnitAmount: null, product: { amount: 2500n } },
  ];
  it('the first period uses unit_amount where sent, else the catalog price', () => expect(firstPeriodAmount(items)).toBe(12480n));
  it('later periods use the catalog price only', () => expect(catalogAmount(items)).toBe(22480n));
});

describe('test clock durations', () => {
  it.each([
    ['31d', { days: 31 }],
    ['12h', { hours: 12 }],
    ['1y', { years: 1 }],
    ['1mo15d', { months: 1, days: 15 }],
    ['2w3d4h5m6s', { weeks: 2, days: 3, hours: 4, minutes: 5, seconds: 6 }],
    [' 1d ', { days: 1 }],
  ])('%s', (text, values) => expect(parseDuration(text)?.toObject()).toEqual(values));

  it.each(['', 'd', '1', '1x', '-1d', '1.5d', '1d-2h', '1 d', 'P1D', '1234567d'])('refuses %j', (text) => expect(parseDuration(text)).toBeNull());
});
