// The dashboard's overview: what a workspace took over the last 7, 30 or 90 days of its own time
// zone, per day and per currency (amounts of different currencies are never added together).
// Every figure is a SQL aggregate over an index (migration 0026): no payment row reaches Node.
//
// What counts (docs/decisions.md, "Overview"): a payment on the day it was created; volume and
// count of successful payments; success rate = successful / (successful + failed + expired), the
// attempts that reached an outcome (started and unresolved ones have none yet); refunds and cancels
// that succeeded, on the day of the refund, in the currency of their payment; decline reasons are
// the error codes of failed payments; attempts the risk decision refused are counted per rule.
import { DateTime } from 'luxon';
import { Prisma } from '../generated/prisma/client.ts';
import type { Tx } from '../db/client.ts';
import { queryRows } from '../db/raw.ts';
import { ValidationError } from './errors.ts';
import { CURRENCIES, isCurrency, type Currency } from './money.ts';
import { STOPPED_CODES } from './risk/judge.ts';

export const OVERVIEW_DAYS = [7, 30, 90] as const;
/** How many decline reasons the overview lists (the most frequent first). */
export const TOP_DECLINES = 10;

export interface OverviewInput {
  days: number;
  /** Only this currency; null: every currency the workspace used in the period. */
  currency?: string | null;
}

export interface OverviewDay {
  /** The workspace's calendar day, YYYY-MM-DD. */
  date: string;
  volume: bigint;
  count: number;
  failed: number;
  refundAmount: bigint;
  refundCount: number;
}

export interface CurrencyOverview {
  currency: Currency;
  volume: bigint;
  count: number;
  failed: number;
  /** successful / (successful + failed), 0..1; null when nothing reached an outcome. */
  successRate: number | null;
  refundAmount: bigint;
  refundCount: number;
  /** Every day of the period, oldest first, zeros included. */
  daily: OverviewDay[];
}

export interface Overview {
  days: number;
  timeZone: string;
  /** First and last day of the period (inclusive), in the workspace's zone. */
  from: string;
  to: string;
  currencies: CurrencyOverview[];
  declines: { errorCode: string; count: number }[];
  /** Attempts the risk decision refused, per rule that refused them (risk/judge.ts), most first. */
  riskStopped: { rule: string; count: number }[];
}

interface Period {
  first: string;
  last: string;
  /** The period's instants, [start, end), as UTC. */
  start: Date;
  end: Date;
}

/** Refuses a period other than 7, 30 or 90 days and an unknown currency, by field path. */
export function checkOverviewInput(input: OverviewInput): { days: number; currency: Currency | null } {
  if (!(OVERVIEW_DAYS as readonly number[]).includes(input.days)) throw ValidationError.single(['days'], 'value_not_allowed', { allowed: OVERVIEW_DAYS.join(', ') });
  const currency = input.currency ?? null;
  if (currency !== null && !isCurrency(currency)) throw ValidationError.single(['currency'], 'currency_invalid');
  return { days: input.days, currency };
}

/** The last `days` calendar days of `zone`, today included, up to the end of today. */
export function periodOf(days: number, timeZone: string, now: Date): Period {
  const today = DateTime.fromJSDate(now, { zone: timeZone }).startOf('day');
  const first = today.minus({ days: days - 1 });
  const next = today.plus({ days: 1 });
  return { first: first.toISODate()!, last: today.toISODate()!, start: first.toJSDate(), end: next.toJSDate() };
}

/** The overview of one workspace at `now` (the workspace's own time). */
export async function overviewOf(db: Tx, workspace: { id: string; timeZone: string }, input: OverviewInput, now: Date): Promise<Overview> {
  const { days, currency, period, statements } = overviewStatements(workspace, input, now);
  const [payments, refunds, declines, riskStopped] = await Promise.all([
    queryRows<PaymentDayRow>(db, statements.payments),
    queryRows<RefundDayRow>(db, statements.refunds),
    queryRows<{ errorCode: string; count: number }>(db, statements.declines),
    queryRows<{ rule: string; count: number }>(db, statements.riskStopped),
  ]);
  return {
    days,
    timeZone: workspace.timeZone,
    from: period.first,
    to: period.last,
    currencies: byCurrency(period, currency, payments, refunds),
    declines,
    riskStopped,
  };
}

/** The checked input, its period and the three statements of the overview (the benchmark EXPLAINs them). */
export function overviewStatements(workspace: { id: string; timeZone: string }, input: OverviewInput, now: Date) {
  const { days, currency } = checkOverviewInput(input);
  const period = periodOf(days, workspace.timeZone, now);
  const scope = { workspaceId: workspace.id, timeZone: workspace.timeZone, period, currency };
  return { days, currency, period, statements: { payments: paymentDays(scope), refunds: refundDays(scope), declines: declineReasons(scope), riskStopped: riskStopped(scope) } };
}

interface Scope {
  workspaceId: string;
  timeZone: string;
  period: Period;
  currency: Currency | null;
}

interface PaymentDayRow {
  day: string;
  currency: Currency;
  volume: bigint;
  count: number;
  failed: number;
}
interface RefundDayRow {
  day: string;
  currency: Currency;
  amount: bigint;
  count: number;
}

// A stored time (`timestamp` holding UTC) as the workspace's calendar day, for the few refunds of a
// period: a `date`, cheaper to group by than text; the outer query turns it into YYYY-MM-DD.
const localDay = (column: Prisma.Sql, timeZone: string) => Prisma.sql`((${column} AT TIME ZONE 'UTC') AT TIME ZONE ${timeZone})::date`;
const currencyIs = (column: Prisma.Sql, currency: Currency | null) => (currency ? Prisma.sql`AND ${column} = ${currency}::"Currency"` : Prisma.empty);

/**
 * Successful volume and count, and failures, per day and currency: the period's days are cut in
 * the workspace's zone first (generate_series of local midnights, each turned into its UTC
 * instant), then each day is one index-only range scan of ("workspaceId", status, "createdAt",
 * currency, amount). No row's time is converted.
 */
function paymentDays(s: Scope): Prisma.Sql {
  return Prisma.sql`
      SELECT d.day::text AS day, x.currency::text AS currency, x.volume, x.count, x.failed
        FROM (SELECT g::date AS day,
                     (g AT TIME ZONE ${s.timeZone}) AT TIME ZONE 'UTC' AS starts,
                     ((g + interval '1 day') AT TIME ZONE ${s.timeZone}) AT TIME ZONE 'UTC' AS ends
                FROM generate_series(${s.period.first}::date::timestamp, ${s.period.last}::date::timestamp, interval '1 day') AS g) d
       CROSS JOIN LATERAL (
        SELECT p.currency,
               COALESCE(SUM(p.amount) FILTER (WHERE p.status = 'successful'), 0)::int8 AS volume,
               (COUNT(*) FILTER (WHERE p.status = 'successful'))::int4 AS count,
               (COUNT(*) FILTER (WHERE p.status IN ('failed', 'expired')))::int4 AS failed
          FROM "Payment" p
         WHERE p."workspaceId" = ${s.workspaceId}::uuid
           AND p.status IN ('successful', 'failed', 'expired')
           AND p."createdAt" >= d.starts AND p."createdAt" < d.ends
           ${currencyIs(Prisma.sql`p.currency`, s.currency)}
         GROUP BY p.currency) x`;
}

/** Succeeded refunds and cancels per day of the refund and currency of the payment. */
function refundDays(s: Scope): Prisma.Sql {
  return Prisma.sql`
      SELECT d.day::text AS day, d.currency::text AS currency, d.amount, d.count FROM (
        SELECT ${localDay(Prisma.sql`r."createdAt"`, s.timeZone)} AS day, p.currency, SUM(r.amount)::int8 AS amount, COUNT(*)::int4 AS count
          FROM "Refund" r JOIN "Payment" p ON p.id = r."paymentId"
         WHERE p."workspaceId" = ${s.workspaceId}::uuid
           AND r."createdAt" >= ${s.period.start} AND r."createdAt" < ${s.period.end}
           AND r.status = 'succeeded'
           ${currencyIs(Prisma.sql`p.currency`, s.currency)}
         GROUP BY 1, 2) d`;
}

/** The most frequent error codes of failed payments in the period. */
function declineReasons(s: Scope): Prisma.Sql {
  return Prisma.sql`
      SELECT COALESCE(p."errorCode", 'unknown') AS "errorCode", COUNT(*)::int4 AS count
        FROM "Payment" p
       WHERE p."workspaceId" = ${s.workspaceId}::uuid
         AND p."createdAt" >= ${s.period.start} AND p."createdAt" < ${s.period.end}
         AND p.status = 'failed'
         ${currencyIs(Prisma.sql`p.currency`, s.currency)}
       GROUP BY 1
       ORDER BY 2 DESC, 1
       LIMIT ${TOP_DECLINES}`;
}

/**
 * Attempts the risk decision refused in the period, per rule that refused them: the rules on each
 * refused payment's `risk` whose outcome is the refusal's (a block, or 3-D Secure for
 * `3ds_required`); a merchant's rule reads `rule:<name>`. Read from the failed payments' range of
 * the status index, like the decline reasons.
 */
function riskStopped(s: Scope): Prisma.Sql {
  return Prisma.sql`
      SELECT r->>'rule' AS rule, COUNT(*)::int4 AS count
        FROM "Payment" p
       CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(p.risk->'rules') = 'array' THEN p.risk->'rules' ELSE '[]'::jsonb END) r
       WHERE p."workspaceId" = ${s.workspaceId}::uuid
         AND p."createdAt" >= ${s.period.start} AND p."createdAt" < ${s.period.end}
         AND p.status = 'failed'
         AND p."errorCode" IN (${Prisma.join([...STOPPED_CODES])})
         AND r->>'outcome' = CASE p."errorCode" WHEN '3ds_required' THEN 'require_3ds' ELSE 'block' END
         ${currencyIs(Prisma.sql`p.currency`, s.currency)}
       GROUP BY 1
       ORDER BY 2 DESC, 1`;
}

/** Rows by currency, every day of the period present; the asked currency is listed even when empty. */
function byCurrency(period: Period, asked: Currency | null, payments: PaymentDayRow[], refunds: RefundDayRow[]): CurrencyOverview[] {
  const seen = new Set<Currency>([...payments.map((r) => r.currency), ...refunds.map((r) => r.currency), ...(asked ? [asked] : [])]);
  const dates = datesOf(period);
  return CURRENCIES.filter((c) => seen.has(c)).map((currency) => {
    const daily = dates.map((date): OverviewDay => {
      const p = payments.find((r) => r.currency === currency && r.day === date);
      const r = refunds.find((x) => x.currency === currency && x.day === date);
      return { date, volume: p?.volume ?? 0n, count: p?.count ?? 0, failed: p?.failed ?? 0, refundAmount: r?.amount ?? 0n, refundCount: r?.count ?? 0 };
    });
    const sum = <K extends 'count' | 'failed' | 'refundCount'>(k: K) => daily.reduce((n, d) => n + d[k], 0);
    const count = sum('count');
    const failed = sum('failed');
    return {
      currency,
      volume: daily.reduce((n, d) => n + d.volume, 0n),
      count,
      failed,
      successRate: count + failed > 0 ? count / (count + failed) : null,
      refundAmount: daily.reduce((n, d) => n + d.refundAmount, 0n),
      refundCount: sum('refundCount'),
      daily,
    };
  });
}

/** Every calendar day of the period, oldest first. */
function datesOf(period: Period): string[] {
  const dates: string[] = [];
  for (let d = DateTime.fromISO(period.first); d.toISODate()! <= period.last; d = d.plus({ days: 1 })) dates.push(d.toISODate()!);
  return dates;
}
