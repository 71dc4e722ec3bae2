// retrieve-payments (shape "not shown" in the spec; designed like retrieve-payment-links):
// by channel_reference, or by a date range of at most 7 days, default the last 7 days.
import { z } from 'zod';
import type { Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { parseInput } from '../validation.ts';
import { requireActive } from '../plans.ts';
import { IssueList } from '../errors.ts';
import { createdWithin, parseDateRange } from '../date-range.ts';
import type { PaymentView } from './view.ts';

export const listInput = z.object({
  channelReference: z.string({ error: 'invalid_type' }).min(1, { error: 'required' }).max(255, { error: 'too_long' }).nullish(),
  createdFrom: z.string({ error: 'invalid_type' }).nullish(),
  createdTo: z.string({ error: 'invalid_type' }).nullish(),
});

export interface PaymentList {
  createdFrom: string | null;
  createdTo: string | null;
  payments: PaymentView[];
}

const LIST_LIMIT = 500;

export async function retrievePayments(s: Services, workspace: Workspace, raw: unknown): Promise<PaymentList> {
  requireActive(workspace);
  const input = parseInput(listInput, raw ?? {});
  const include = { customer: true, storedCard: true, refunds: { orderBy: { createdAt: 'asc' as const } } };
  const issues = new IssueList();
  if (input.channelReference && (input.createdFrom != null || input.createdTo != null)) issues.add(['channelReference'], 'not_with_dates');
  issues.throwIfAny();
  const range = input.channelReference ? null : parseDateRange(input, workspace.timeZone, s.clock.now());
  const payments = await s.db.payment.findMany({
    where: { workspaceId: workspace.id, ...(range ? createdWithin(range) : { channelReference: input.channelReference! }) },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include,
    take: LIST_LIMIT,
  });
  return { createdFrom: range?.from ?? null, createdTo: range?.to ?? null, payments };
}
