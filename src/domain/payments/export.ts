// Payments as CSV records (docs/decisions.md, "CSV export"): read in keyset batches, newest first
// (the list's order), so an export of any size holds one batch in memory; each payment becomes one
// record of plain strings. Amounts are decimal strings in the payment's currency, times ISO 8601 in
// UTC plus the creation time in the workspace's zone. No card data beyond what the gateway keeps
// (first digits, last four).
import { DateTime } from 'luxon';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import { formatAmount } from '../money.ts';

export const PAYMENT_CSV_COLUMNS = [
  'token',
  'created_at',
  'created_at_local',
  'time_zone',
  'status',
  'payment_status',
  'amount',
  'refunded_amount',
  'currency',
  'installment_number',
  'card_first_digits',
  'card_last_four',
  'card_scheme',
  'card_holder_name',
  'channel_reference',
  'error_code',
  'is_test',
  'completed_at',
] as const;

export type PaymentCsvRecord = Record<(typeof PAYMENT_CSV_COLUMNS)[number], string>;

/** Rows per database round trip: small enough to stay a few hundred kilobytes. */
export const EXPORT_BATCH = 1000;

const SELECT = {
  id: true,
  createdAt: true,
  completedAt: true,
  status: true,
  paymentStatus: true,
  amount: true,
  refundedAmount: true,
  currency: true,
  installmentNumber: true,
  cardFirstDigits: true,
  cardLastFourDigits: true,
  cardScheme: true,
  cardHolderName: true,
  channelReference: true,
  errorCode: true,
  isTest: true,
  workspace: { select: { timeZone: true } },
} as const satisfies Prisma.PaymentSelect;

type ExportRow = Prisma.PaymentGetPayload<{ select: typeof SELECT }>;

/**
 * The payments matching `where`, newest first, `batch` at a time. Keyset paging on (createdAt, id)
 * rather than an offset: each batch starts where the last ended, through the ("workspaceId",
 * "createdAt") index, however deep into the list it is. `signal` stops it between batches.
 */
export async function* paymentRecords(db: Tx, where: Prisma.PaymentWhereInput, signal?: AbortSignal, batch = EXPORT_BATCH): AsyncGenerator<PaymentCsvRecord> {
  let after: { createdAt: Date; id: string } | null = null;
  while (!signal?.aborted) {
    const page: ExportRow[] = await db.payment.findMany({
      where: after ? { AND: [where, { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }] } : where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: batch,
      select: SELECT,
    });
    for (const row of page) yield paymentRecord(row);
    if (page.length < batch) return;
    after = page[page.length - 1]!;
  }
}

export function paymentRecord(p: ExportRow): PaymentCsvRecord {
  return {
    token: p.id,
    created_at: p.createdAt.toISOString(),
    created_at_local: DateTime.fromJSDate(p.createdAt, { zone: p.workspace.timeZone }).toISO() ?? '',
    time_zone: p.workspace.timeZone,
    status: p.status,
    payment_status: p.paymentStatus ?? '',
    amount: formatAmount(p.amount),
    refunded_amount: formatAmount(p.refundedAmount),
    currency: p.currency,
    installment_number: String(p.installmentNumber),
    card_first_digits: p.cardFirstDigits ?? '',
    card_last_four: p.cardLastFourDigits ?? '',
    card_scheme: p.cardScheme ?? '',
    card_holder_name: p.cardHolderName ?? '',
    channel_reference: p.channelReference ?? '',
    error_code: p.errorCode ?? '',
    is_test: String(p.isTest),
    completed_at: p.completedAt?.toISOString() ?? '',
  };
}

/**
 * A cell a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage
 * return) gets a leading apostrophe, so that opening the file never executes what a shopper or
 * merchant typed into a reference or a card holder's name.
 */
export function inertCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
