// Orders as CSV records, the same way as payments (domain/payments/export.ts): keyset batches,
// newest first; amounts as decimal strings, times in UTC plus the creation time in the workspace's
// zone; the customer by the merchant's own reference.
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import { formatAmount } from '../money.ts';
import { batchQuery, CREATED_COLUMNS, createdCells, keysetRows } from '../exports.ts';

export const ORDER_CSV_COLUMNS = [
  'token',
  ...CREATED_COLUMNS,
  'channel_reference',
  'status',
  'amount',
  'currency',
  'description',
  'customer_reference',
  'paid_at',
] as const;

export type OrderCsvRecord = Record<(typeof ORDER_CSV_COLUMNS)[number], string>;

const SELECT = {
  id: true,
  createdAt: true,
  channelReference: true,
  status: true,
  amount: true,
  currency: true,
  description: true,
  paidAt: true,
  customer: { select: { channelReference: true } },
  workspace: { select: { timeZone: true } },
} as const satisfies Prisma.OrderSelect;

type ExportRow = Prisma.OrderGetPayload<{ select: typeof SELECT }>;

/** The orders matching `where`, newest first, as records, one batch in memory at a time. */
export async function* orderRecords(db: Tx, where: Prisma.OrderWhereInput, signal?: AbortSignal, batch?: number): AsyncGenerator<OrderCsvRecord> {
  const page = (after: ExportRow | null, take: number): Promise<ExportRow[]> =>
    db.order.findMany({ ...batchQuery(where, after, take), select: SELECT });
  for await (const o of keysetRows(page, signal, batch)) {
    yield {
      token: o.id,
      ...createdCells(o),
      channel_reference: o.channelReference,
      status: o.status,
      amount: formatAmount(o.amount),
      currency: o.currency,
      description: o.description ?? '',
      customer_reference: o.customer.channelReference,
      paid_at: o.paidAt?.toISOString() ?? '',
    };
  }
}
