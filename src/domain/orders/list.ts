// retrieve-orders (shape "not shown" in the contract; designed like retrieve-payment-links): one of
// token, channel_reference, or a date range of at most 7 days (default: the last 7 days). Always a
// list, oldest first; another workspace's orders never appear.
import { z } from 'zod';
import type { Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { parseInput, uuid } from '../validation.ts';
import { requireFeature } from '../plans.ts';
import { IssueList } from '../errors.ts';
import { createdWithin, parseDateRange } from '../date-range.ts';
import { orderInclude, type OrderView } from './view.ts';

export const listInput = z.object({
  token: uuid().nullish(),
  channelReference: z.string({ error: 'invalid_type' }).min(1, { error: 'required' }).max(255, { error: 'too_long' }).nullish(),
  createdFrom: z.string({ error: 'invalid_type' }).nullish(),
  createdTo: z.string({ error: 'invalid_type' }).nullish(),
});

export interface OrderList {
  createdFrom: string | null;
  createdTo: string | null;
  orders: OrderView[];
}

const LIST_LIMIT = 500;

export async function retrieveOrders(s: Services, workspace: Workspace, raw: unknown): Promise<OrderList> {
  requireFeature(workspace, 'orders');
  const input = parseInput(listInput, raw ?? {});
  const hasDates = input.createdFrom != null || input.createdTo != null;
  const issues = new IssueList();
  if (input.token && (input.channelReference || hasDates)) issues.add(['token'], 'token_not_combinable');
  else if (input.channelReference && hasDates) issues.add(['channelReference'], 'not_with_dates');
  issues.throwIfAny();

  const range = input.token || input.channelReference ? null : parseDateRange(input, workspace.timeZone, s.clock.now());
  const selected = range ? createdWithin(range) : input.token ? { id: input.token } : { channelReference: input.channelReference! };
  const orders = await s.db.order.findMany({
    where: { workspaceId: workspace.id, ...selected },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: orderInclude,
    take: LIST_LIMIT,
  });
  return { createdFrom: range?.from ?? null, createdTo: range?.to ?? null, orders };
}
