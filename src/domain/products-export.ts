// Products as CSV records, the same way as the other lists (domain/exports.ts): keyset batches,
// newest first; the price as a decimal string, the VAT rate as a percentage, times in UTC plus the
// creation time in the workspace's zone.
import type { Prisma } from '../generated/prisma/client.ts';
import type { Tx } from '../db/client.ts';
import { formatAmount, formatRate } from './money.ts';
import { batchQuery, CREATED_COLUMNS, createdCells, keysetRows } from './exports.ts';

export const PRODUCT_CSV_COLUMNS = [
  'token',
  ...CREATED_COLUMNS,
  'channel_token',
  'channel_reference',
  'name',
  'type',
  'period',
  'amount',
  'currency',
  'tax_rate',
  'is_active',
  'updated_at',
] as const;

export type ProductCsvRecord = Record<(typeof PRODUCT_CSV_COLUMNS)[number], string>;

const INCLUDE = { workspace: { select: { timeZone: true } } } as const satisfies Prisma.ProductInclude;

type ExportRow = Prisma.ProductGetPayload<{ include: typeof INCLUDE }>;

/** The products matching `where`, newest first, as records, one batch in memory at a time. */
export async function* productRecords(db: Tx, where: Prisma.ProductWhereInput, signal?: AbortSignal, batch?: number): AsyncGenerator<ProductCsvRecord> {
  const page = (after: ExportRow | null, take: number): Promise<ExportRow[]> =>
    db.product.findMany({ ...batchQuery(where, after, take), include: INCLUDE });
  for await (const p of keysetRows(page, signal, batch)) {
    yield {
      token: p.id,
      ...createdCells(p),
      channel_token: p.channelId,
      channel_reference: p.channelReference,
      name: p.name,
      type: p.type,
      period: p.period ?? '',
      amount: formatAmount(p.amount),
      currency: p.currency,
      tax_rate: formatRate(BigInt(p.taxRate)),
      is_active: String(p.isActive),
      updated_at: p.updatedAt.toISOString(),
    };
  }
}
