// The payments list's filters: a day is the workspace's calendar day (its zone's midnights, summer
// time included), and the status selects list the schema's values in the kit's order of meaning.
import { describe, expect, it } from 'vitest';
import { dayStart, inKitOrder, toFilter, NO_FILTERS } from '../../dashboard/src/payments/filters.ts';
import { PaymentMoneyStatus, PaymentStatus } from '../../dashboard/src/schema-enums.ts';

describe('payments list filters', () => {
  it("cuts days at the workspace zone's midnight", () => {
    expect(dayStart('2026-03-10', 'Europe/Istanbul').toISOString()).toBe('2026-03-09T21:00:00.000Z');
    // Berlin moves to summer time at 02:00 on 29 March: that day starts at +1 and ends at +2.
    expect(dayStart('2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(dayStart('2026-03-29', 'Europe/Berlin', 1).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(dayStart('2026-11-01', 'America/New_York').toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(dayStart('2026-12-31', 'Asia/Tokyo', 1).toISOString()).toBe('2026-12-31T15:00:00.000Z');
  });

  it('sends a from-to range covering both whole days, and nothing for empty filters', () => {
    expect(toFilter({ ...NO_FILTERS, from: '2026-03-10', to: '2026-03-10' }, 'Europe/Istanbul').created).toEqual({ from: '2026-03-09T21:00:00.000Z', to: '2026-03-10T20:59:59.999Z' });
    expect(toFilter(NO_FILTERS, 'Europe/Istanbul')).toEqual({ status: undefined, paymentStatus: undefined, channelReference: undefined, cardLastFour: undefined, created: undefined });
  });

  it("orders the schema's statuses by meaning, every value kept", () => {
    expect(inKitOrder('payment', PaymentStatus)).toEqual(['started', 'successful', 'failed', 'expired', 'unresolved']);
    expect(inKitOrder('money', PaymentMoneyStatus)).toEqual(['paid', 'partially_refunded', 'refunded', 'cancelled']);
    expect(inKitOrder('money', ['zzz_new', 'refunded', 'paid'] as const)).toEqual(['paid', 'refunded', 'zzz_new']);
  });
});
