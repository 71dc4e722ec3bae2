// Payments as CSV records (docs/decisions.md, "CSV export"): read in keyset batches, newest first
// (the list's order; domain/exports.ts), so an export of any size holds one batch in memory. Each
// payment becomes one record of plain strings: amounts as decimal strings in the payment's
// currency, times ISO 8601 in UTC plus the creation time in the workspace's zone. No card data
// beyond what the gateway keeps (first digits, last four).
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import { formatAmount } from '../money.ts';
import { batchQuery, CREATED_COLUMNS, createdCells, keysetRows } from '../exports.ts';

export const PAYMENT_CSV_COLUMNS = [
  'token',
  ...CREATED_COLUMNS,
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

/** The payments matching `where`, newest first, as records, one batch in memory at a time. */
export async function* paymentRecords(db: Tx, where: Prisma.PaymentWhereInput, signal?: AbortSignal, batch?: number): AsyncGenerator<PaymentCsvRecord> {
  const page = (after: ExportRow | null, take: number): Promise<ExportRow[]> =>
    db.payment.findMany({ ...batchQuery(where, after, take), select: SELECT });
  for await (const row of keysetRows(page, signal, batch)) yield paymentRecord(row);
}

export function paymentRecord(p: ExportRow): PaymentCsvRecord {
  return {
    token: p.id,
    ...createdCells(p),
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
