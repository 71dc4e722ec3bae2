// Payment links as CSV records, the same way as payments (domain/payments/export.ts): keyset
// batches, newest first; amounts as decimal strings, times in UTC plus the creation time in the
// workspace's zone. `is_active` is what the list shows (switched on and its last day not over, at
// the moment of the export); the counts are the link's payment attempts and its paid payments.
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import { formatAmount } from '../money.ts';
import { batchQuery, CREATED_COLUMNS, createdCells, keysetRows } from '../exports.ts';
import { fixedTotals, isOpen, linkInclude, type LinkView } from './view.ts';

export const LINK_CSV_COLUMNS = [
  'token',
  ...CREATED_COLUMNS,
  'reference',
  'description',
  'amount_type',
  'item_name',
  'amount',
  'predefined_amounts',
  'currency',
  'currencies',
  'is_active',
  'expires_at',
  'transactions_count',
  'paid_count',
] as const;

export type LinkCsvRecord = Record<(typeof LINK_CSV_COLUMNS)[number], string>;

const INCLUDE = {
  ...linkInclude,
  workspace: { select: { timeZone: true } },
  // Attempts as the list counts them (a link payment that reached a payment row), and the paid ones.
  _count: { select: { linkPayments: { where: { payment: { isNot: null } } } } },
} as const satisfies Prisma.PaymentLinkInclude;

type ExportRow = Prisma.PaymentLinkGetPayload<{ include: typeof INCLUDE }> & { paid: number };

/** The links matching `where`, newest first, as records, one batch in memory at a time; open or closed at `now`. */
export async function* linkRecords(db: Tx, where: Prisma.PaymentLinkWhereInput, now: Date, signal?: AbortSignal, batch?: number): AsyncGenerator<LinkCsvRecord> {
  const page = async (after: ExportRow | null, take: number): Promise<ExportRow[]> => {
    const links = await db.paymentLink.findMany({ ...batchQuery(where, after, take), include: INCLUDE });
    const paid = await paidCounts(db, links.map((l) => l.id));
    return links.map((l) => ({ ...l, paid: paid.get(l.id) ?? 0 }));
  };
  for await (const link of keysetRows(page, signal, batch)) yield record(link, now);
}

function record(l: ExportRow, now: Date): LinkCsvRecord {
  const totals = fixedTotals(l as LinkView);
  return {
    token: l.id,
    ...createdCells(l),
    reference: l.reference,
    description: l.description ?? '',
    amount_type: l.amountType,
    item_name: l.itemName ?? '',
    amount: totals ? formatAmount(totals.amount) : '',
    predefined_amounts: l.amountType === 'predefined' || l.amountType === 'predefined_and_custom' ? l.predefinedAmounts.map(formatAmount).join(' ') : '',
    currency: l.currency,
    currencies: l.currencyType === 'selectable' ? l.currencies.join(' ') : '',
    is_active: String(isOpen(l, now)),
    expires_at: l.expiresAt?.toISOString() ?? '',
    transactions_count: String(l._count.linkPayments),
    paid_count: String(l.paid),
  };
}

/** Paid link payments per link, for one batch in one query. */
async function paidCounts(db: Tx, linkIds: string[]): Promise<Map<string, number>> {
  if (linkIds.length === 0) return new Map();
  const groups = await db.linkPayment.groupBy({ by: ['linkId'], where: { linkId: { in: linkIds }, status: 'paid' }, _count: { _all: true } });
  return new Map(groups.map((g) => [g.linkId, g._count._all]));
}
