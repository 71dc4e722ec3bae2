// Customers are created or updated from the `customer` object of payment, order, subscription and
// save-card requests, keyed by (channel, channel_reference).
import { z } from 'zod';
import type { Shopper } from '../providers/types.ts';
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

/** Fields sent replace stored ones; fields not sent keep their stored value. `now` is the gateway's clock. */
export function customerUpsert(workspaceId: string, channelId: string, input: CustomerInput, now: Date): Upsert<Customer> {
  const { channelReference, ...details } = input;
  const sent: Columns<Customer> = Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined && v !== null));
  return { table: 'Customer', conflict: ['channelId', 'channelReference'], insert: { workspaceId, channelId, channelReference, ...sent, createdAt: now }, update: sent };
}

export async function upsertCustomer(db: Tx, workspaceId: string, channelId: string, input: CustomerInput, now: Date): Promise<Customer> {
  return upsertRow(db, customerUpsert(workspaceId, channelId, input, now));
}

/** What a provider may learn of the customer for its fraud checks; the card alone is never enough for some. */
export function shopperOf(input: Partial<Pick<CustomerInput, 'channelReference' | 'firstname' | 'lastname' | 'email' | 'phone'>> | null | undefined): Shopper {
  if (!input) return {};
  const known = { id: input.channelReference, name: input.firstname, surname: input.lastname, email: input.email, phone: input.phone };
  return Object.fromEntries(Object.entries(known).filter(([, v]) => typeof v === 'string' && v !== '')) as Shopper;
}
