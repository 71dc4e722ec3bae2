// Subscriptions as CSV records, the same way as payments (domain/payments/export.ts): keyset
// batches, newest first; the current period's amount and end (the next renewal) as the list shows
// them; times in UTC plus the creation time in the workspace's zone.
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import { formatAmount } from '../money.ts';
import { batchQuery, CREATED_COLUMNS, createdCells, keysetRows } from '../exports.ts';
import { currentPeriod } from './view.ts';

export const SUBSCRIPTION_CSV_COLUMNS = [
  'token',
  ...CREATED_COLUMNS,
  'channel_reference',
  'status',
  'period',
  'amount',
  'currency',
  'period_ends_at',
  'renewal_limit',
  'customer_reference',
  'cancelled_at',
  'ended_at',
  'is_test',
] as const;

export type SubscriptionCsvRecord = Record<(typeof SUBSCRIPTION_CSV_COLUMNS)[number], string>;

const SELECT = {
  id: true,
  createdAt: true,
  channelReference: true,
  status: true,
  period: true,
  currency: true,
  renewalLimit: true,
  cancelledAt: true,
  endedAt: true,
  isTest: true,
  periods: { orderBy: { number: 'desc' }, take: 1 },
  customer: { select: { channelReference: true } },
  workspace: { select: { timeZone: true } },
} as const satisfies Prisma.SubscriptionSelect;

type ExportRow = Prisma.SubscriptionGetPayload<{ select: typeof SELECT }>;

/** The subscriptions matching `where`, newest first, as records, one batch in memory at a time. */
export async function* subscriptionRecords(db: Tx, where: Prisma.SubscriptionWhereInput, signal?: AbortSignal, batch?: number): AsyncGenerator<SubscriptionCsvRecord> {
  const page = (after: ExportRow | null, take: number): Promise<ExportRow[]> =>
    db.subscription.findMany({ ...batchQuery(where, after, take), select: SELECT });
  for await (const s of keysetRows(page, signal, batch)) {
    const current = currentPeriod(s);
    yield {
      token: s.id,
      ...createdCells(s),
      channel_reference: s.channelReference,
      status: s.status,
      period: s.period,
      amount: formatAmount(current.amount),
      currency: s.currency,
      period_ends_at: current.endsAt?.toISOString() ?? '',
      renewal_limit: s.renewalLimit === null ? '' : String(s.renewalLimit),
      customer_reference: s.customer.channelReference,
      cancelled_at: s.cancelledAt?.toISOString() ?? '',
      ended_at: s.endedAt?.toISOString() ?? '',
      is_test: s.isTest === null ? '' : String(s.isTest),
    };
  }
}
