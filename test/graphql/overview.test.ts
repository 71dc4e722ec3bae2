// The dashboard's overview query against rows written with exact times: sums per day and currency
// (TRY never added to USD), the Istanbul midnight on both sides, London's across summer time,
// refunds on the day they were made, decline reasons, the success rate, the 7/30-day periods, the
// currency filter, refused arguments by name, and who may read it (no token: 401; another
// workspace's rows: never).
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { useGateway } from '../helpers/fixture.ts';
import { gql } from '../helpers/webhooks.ts';
import { insertPayments } from '../helpers/seed-payments.ts';

// 15:00 in Istanbul (UTC+3) on 10 March: the 7-day period is 4-10 March, from 3 March 21:00 UTC.
const { t, merchant: m, merchants, seed } = useGateway({ merchant: true, merchants: { other: {} }, now: '2026-03-10T12:00:00Z' });

const QUERY = `query ($days: Int!, $currency: String, $slug: String) {
  overview(days: $days, currency: $currency, workspaceSlug: $slug) {
    days timeZone from to
    currencies { currency volume count failed successRate refundAmount refundCount daily { date volume count failed refundAmount refundCount } }
    declines { errorCode count }
  }
}`;

let token: string;

beforeAll(async () => {
  token = await createAccessToken(t.gateway.services.db, m.team, 'overview');
  const url = t.databaseUrl;
  await insertPayments(url, m.workspaceId, [
    // 23:59:59.999 on 3 March in Istanbul: the day before the 7-day period; refunded inside it.
    { createdAt: '2026-03-03T20:59:59.999Z', amount: 10000n, refunds: [{ amount: 1000n, at: '2026-03-08T09:00:00Z' }] },
    // 00:00 on 4 March in Istanbul: the period's first instant. Refunded at 23:30 on 9 March and 00:30 on 10 March.
    {
      createdAt: '2026-03-03T21:00:00Z',
      amount: 25000n,
      refunds: [
        { amount: 2500n, at: '2026-03-09T20:30:00Z' },
        { amount: 5000n, at: '2026-03-09T21:30:00Z' },
      ],
    },
    { createdAt: '2026-03-04T20:59:59Z', amount: 1055n }, // 23:59:59 on 4 March
    { createdAt: '2026-03-04T22:00:00Z', amount: 2000n, currency: 'USD' }, // 01:00 on 5 March
    { createdAt: '2026-03-05T10:00:00Z', amount: 7000n, status: 'failed', errorCode: 'insufficient_funds' },
    { createdAt: '2026-03-06T10:00:00Z', amount: 7000n, status: 'failed', errorCode: 'insufficient_funds' },
    { createdAt: '2026-03-06T11:00:00Z', amount: 3000n, currency: 'USD', status: 'failed', errorCode: 'expired_card' },
    { createdAt: '2026-03-07T10:00:00Z', amount: 9000n, status: 'expired' },
    // No outcome yet: neither a success nor a failure.
    { createdAt: '2026-03-07T11:00:00Z', amount: 9000n, status: 'started' },
    { createdAt: '2026-03-07T12:00:00Z', amount: 9000n, status: 'unresolved' },
    // 00:30 on 11 March in Istanbul: tomorrow, outside every period.
    { createdAt: '2026-03-10T21:30:00Z', amount: 4000n },
  ]);
  // Another workspace's payment on a day of the period: never in this overview.
  await insertPayments(url, merchants.other.workspaceId, [{ createdAt: '2026-03-05T10:00:00Z', amount: 99900n, refunds: [{ amount: 100n, at: '2026-03-06T10:00:00Z' }] }]);
});

const overview = async (variables: Record<string, unknown>, as: string | null = token) => gql(t, as, QUERY, variables);
type Day = { date: string; volume: string; count: number; failed: number; refundAmount: string; refundCount: number };
const day = (days: Day[], date: string) => days.find((d) => d.date === date);

describe('overview', () => {
  it('sums the last 7 days of Istanbul per day and currency, refunds on their own day, decline reasons', async () => {
    const res = await overview({ days: 7 });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const o = res.body.data.overview;
    expect(o).toMatchObject({ days: 7, timeZone: 'Europe/Istanbul', from: '2026-03-04', to: '2026-03-10' });
    expect(o.currencies.map((c: { currency: string }) => c.currency)).toEqual(['TRY', 'USD']);
    const [tr, usd] = o.currencies;
    expect(tr).toMatchObject({ volume: '260.55', count: 2, failed: 3, successRate: 0.4, refundAmount: '85.00', refundCount: 3 });
    expect(usd).toMatchObject({ volume: '20.00', count: 1, failed: 1, successRate: 0.5, refundAmount: '0.00', refundCount: 0 });
    expect(tr.daily.map((d: Day) => d.date)).toEqual(['2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10']);
    expect(day(tr.daily, '2026-03-04')).toEqual({ date: '2026-03-04', volume: '260.55', count: 2, failed: 0, refundAmount: '0.00', refundCount: 0 });
    expect(day(tr.daily, '2026-03-05')).toMatchObject({ volume: '0.00', count: 0, failed: 1 });
    expect(day(tr.daily, '2026-03-07')).toMatchObject({ count: 0, failed: 1 });
    expect(day(tr.daily, '2026-03-08')).toMatchObject({ refundAmount: '10.00', refundCount: 1 });
    expect(day(tr.daily, '2026-03-09')).toMatchObject({ refundAmount: '25.00', refundCount: 1 });
    expect(day(tr.daily, '2026-03-10')).toMatchObject({ volume: '0.00', count: 0, refundAmount: '50.00', refundCount: 1 });
    expect(day(usd.daily, '2026-03-05')).toMatchObject({ volume: '20.00', count: 1 });
    expect(o.declines).toEqual([
      { errorCode: 'insufficient_funds', count: 2 },
      { errorCode: 'expired_card', count: 1 },
    ]);
  });

  it('30 days reach back over the Istanbul midnight of 3 March', async () => {
    const o = (await overview({ days: 30 })).body.data.overview;
    expect(o).toMatchObject({ from: '2026-02-09', to: '2026-03-10' });
    const tr = o.currencies.find((c: { currency: string }) => c.currency === 'TRY');
    expect(tr).toMatchObject({ volume: '360.55', count: 3 });
    expect(tr.daily).toHaveLength(30);
    expect(day(tr.daily, '2026-03-03')).toMatchObject({ volume: '100.00', count: 1 });
  });

  it('one currency only, listed even without payments', async () => {
    const usd = (await overview({ days: 7, currency: 'USD' })).body.data.overview;
    expect(usd.currencies.map((c: { currency: string }) => c.currency)).toEqual(['USD']);
    expect(usd.declines).toEqual([{ errorCode: 'expired_card', count: 1 }]);
    const gbp = (await overview({ days: 7, currency: 'GBP' })).body.data.overview;
    expect(gbp.currencies).toHaveLength(1);
    expect(gbp.currencies[0]).toMatchObject({ currency: 'GBP', volume: '0.00', count: 0, successRate: null });
  });

  it("cuts days at the workspace zone's midnight across a summer-time change (London, 29 March)", async () => {
    const london = await seed();
    await t.gateway.services.db.workspace.update({ where: { id: london.workspaceId }, data: { timeZone: 'Europe/London' } });
    await insertPayments(t.databaseUrl, london.workspaceId, [
      { createdAt: '2026-03-28T23:59:59Z', amount: 100n }, // 23:59:59 GMT on 28 March
      { createdAt: '2026-03-29T00:00:00Z', amount: 200n }, // 00:00 GMT on 29 March (clocks go forward at 01:00)
      { createdAt: '2026-03-29T22:59:59Z', amount: 400n }, // 23:59:59 BST on 29 March
      { createdAt: '2026-03-29T23:00:00Z', amount: 800n }, // 00:00 BST on 30 March
    ]);
    const londonToken = await createAccessToken(t.gateway.services.db, london.team, 'london');
    const before = t.clock.now();
    t.clock.set('2026-03-31T12:00:00Z');
    try {
      const o = (await overview({ days: 7 }, londonToken)).body.data.overview;
      expect(o).toMatchObject({ timeZone: 'Europe/London', from: '2026-03-25', to: '2026-03-31' });
      const daily: Day[] = o.currencies[0].daily;
      expect(daily.filter((d) => d.count > 0).map((d) => [d.date, d.volume])).toEqual([
        ['2026-03-28', '1.00'],
        ['2026-03-29', '6.00'],
        ['2026-03-30', '8.00'],
      ]);
    } finally {
      t.clock.set(before);
    }
  });

  it('refuses other periods and unknown currencies by argument name', async () => {
    const days = await overview({ days: 8 });
    expect(days.body.data?.overview ?? null).toBeNull();
    expect(days.body.errors?.[0]).toMatchObject({ message: 'Must be one of: 7, 30, 90.', extensions: { code: 'BAD_USER_INPUT', field: 'days' } });
    const currency = await overview({ days: 7, currency: 'XYZ' });
    expect(currency.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', field: 'currency' } });
  });

  it('needs a token, and never shows another workspace', async () => {
    const anonymous = await overview({ days: 7 }, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.data?.overview ?? null).toBeNull();
    // A workspace token asking for another workspace's slug still gets its own.
    const own = (await overview({ days: 7, slug: merchants.other.team })).body.data.overview;
    expect(own.currencies[0]).toMatchObject({ currency: 'TRY', volume: '260.55' });
    const otherToken = await createAccessToken(t.gateway.services.db, merchants.other.team, 'other');
    const other = (await overview({ days: 7 }, otherToken)).body.data.overview;
    expect(other.currencies).toHaveLength(1);
    expect(other.currencies[0]).toMatchObject({ currency: 'TRY', volume: '999.00', count: 1, refundAmount: '1.00' });
  });

  it('support staff read the workspace they name, and none without one', async () => {
    const support = await createAccessToken(t.gateway.services.db, null, 'support');
    expect((await overview({ days: 7 }, support)).body.data.overview).toBeNull();
    const named = (await overview({ days: 7, slug: m.team }, support)).body.data.overview;
    expect(named.currencies[0]).toMatchObject({ currency: 'TRY', volume: '260.55' });
  });
});
