// Customers are created or updated from the `customer` object of payment, order, subscription and
// save-card requests, keyed by (channel, channel_reference).
import { z } from 'zod';
import type { Customer } from '../generated/prisma/client.ts';
import type { Tx } from '../db/client.ts';
import { upsertRow, type Columns, type Upsert } from '../db/rows.ts';
import { text } from './validation.ts';

export const customerInput = () =>
  z.object(
    {
      channelReference: z.string({ error: 'invalid_type' }).min(1, { error: 'required' }).max(255, { error: 'too_long' }),
      firstname: text().nullish(),
      lastname: text().nullish(),
      email: text().nullish(),
      phone: text().nullish(),
      address: text(1000).nullish(),
      district: text().nullish(),
      province: text().nullish(),
      country: text().nullish(),
    },
    { error: 'customer_required' },
  );

export type CustomerInput = z.output<ReturnType<typeof customerInput>>;

/** Fields sent replace stored ones; fields not sent keep their stored value. */
export function customerUpsert(workspaceId: string, channelId: string, input: CustomerInput): Upsert<Customer> {
  const { channelReference, ...details } = input;
  const sent: Columns<Customer> = Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined && v !== null));
  return { table: 'Customer', conflict: ['channelId', 'channelReference'], insert: { workspaceId, channelId, channelReference, ...sent, createdAt: new Date() }, update: sent };
}

export async function upsertCustomer(db: Tx, workspaceId: string, channelId: string, input: CustomerInput): Promise<Customer> {
  return upsertRow(db, customerUpsert(workspaceId, channelId, input));
}
