// retrieve-payments (shape "not shown" in the contract; designed like retrieve-payment-links):
// by channel_reference, or by a date range of at most 7 days, default the last 7 days.
import { z } from 'zod';
import type { Prisma, Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { parseInput } from '../validation.ts';
import { requireActive } from '../plans.ts';
import { IssueList } from '../errors.ts';
import { createdWithin, parseDateRange } from '../date-range.ts';

export const listInput = z.object({
  channelReference: z.string({ error: 'invalid_type' }).min(1, { error: 'required' }).max(255, { error: 'too_long' }).nullish(),
  createdFrom: z.string({ error: 'invalid_type' }).nullish(),
  createdTo: z.string({ error: 'invalid_type' }).nullish(),
});

/** A listed payment is shown whole (graphql/types/payment-records.ts), with its refunds. */
const listInclude = { customer: true, storedCard: true, refunds: { orderBy: { createdAt: 'asc' } } } satisfies Prisma.PaymentInclude;
export type ListedPayment = Prisma.PaymentGetPayload<{ include: typeof listInclude }>;

export interface PaymentList {
  createdFrom: string | null;
  createdTo: string | null;
  payments: ListedPayment[];
}

const LIST_LIMIT = 500;

export async function retrievePayments(s: Services, workspace: Workspace, raw: unknown): Promise<PaymentList> {
  requireActive(workspace);
  const input = parseInput(listInput, raw ?? {});
  const issues = new IssueList();
  if (input.channelReference && (input.createdFrom != null || input.createdTo != null)) issues.add(['channelReference'], 'not_with_dates');
  issues.throwIfAny();
  const range = input.channelReference ? null : parseDateRange(input, workspace.timeZone, s.clock.now());
  const payments = await s.db.payment.findMany({
    where: { workspaceId: workspace.id, ...(range ? createdWithin(range) : { channelReference: input.channelReference! }) },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: listInclude,
    take: LIST_LIMIT,
  });
  return { createdFrom: range?.from ?? null, createdTo: range?.to ?? null, payments };
}
