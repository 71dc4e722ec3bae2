// Customers as CSV records, the same way as payments (domain/payments/export.ts): keyset batches,
// newest first; times in UTC plus the creation time in the workspace's zone. What the customers
// list and page show of a customer (its contact details as the requests gave them) and how many
// payment attempts it has; never card data (saved cards stay on the customer's page).
import type { Prisma } from '../generated/prisma/client.ts';
import type { Tx } from '../db/client.ts';
import { batchQuery, CREATED_COLUMNS, createdCells, keysetRows } from './exports.ts';

export const CUSTOMER_CSV_COLUMNS = [
  'token',
  ...CREATED_COLUMNS,
  'channel_token',
  'channel_reference',
  'firstname',
  'lastname',
  'email',
  'phone',
  'address',
  'district',
  'province',
  'country',
  'payment_count',
] as const;

export type CustomerCsvRecord = Record<(typeof CUSTOMER_CSV_COLUMNS)[number], string>;

const INCLUDE = {
  workspace: { select: { timeZone: true } },
  _count: { select: { payments: true } },
} as const satisfies Prisma.CustomerInclude;

type ExportRow = Prisma.CustomerGetPayload<{ include: typeof INCLUDE }>;

/** The customers matching `where`, newest first, as records, one batch in memory at a time. */
export async function* customerRecords(db: Tx, where: Prisma.CustomerWhereInput, signal?: AbortSignal, batch?: number): AsyncGenerator<CustomerCsvRecord> {
  const page = (after: ExportRow | null, take: number): Promise<ExportRow[]> =>
    db.customer.findMany({ ...batchQuery(where, after, take), include: INCLUDE });
  for await (const c of keysetRows(page, signal, batch)) {
    yield {
      token: c.id,
      ...createdCells(c),
      channel_token: c.channelId,
      channel_reference: c.channelReference,
      firstname: c.firstname ?? '',
      lastname: c.lastname ?? '',
      email: c.email ?? '',
      phone: c.phone ?? '',
      address: c.address ?? '',
      district: c.district ?? '',
      province: c.province ?? '',
      country: c.country ?? '',
      payment_count: String(c._count.payments),
    };
  }
}
