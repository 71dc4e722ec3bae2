// retrieve-subscriptions (shape "not shown" in the contract; designed like retrieve-orders): by
// channel_reference, or a date range of at most 7 days in the workspace time zone (empty body:
// the last 7 days). Always a list, oldest first; another workspace's subscriptions never appear.
import { z } from 'zod';
import type { Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { parseInput } from '../validation.ts';
import { requireFeature } from '../plans.ts';
import { IssueList } from '../errors.ts';
import { parseDateRange } from '../date-range.ts';
import { workspaceNow } from '../workspace-clock.ts';
import { subscriptionInclude, type SubscriptionView } from './view.ts';

export const listInput = z.object({
  channelReference: z.string({ error: 'invalid_type' }).min(1, { error: 'required' }).max(255, { error: 'too_long' }).nullish(),
  createdFrom: z.string({ error: 'invalid_type' }).nullish(),
  createdTo: z.string({ error: 'invalid_type' }).nullish(),
});

export interface SubscriptionList {
  createdFrom: string | null;
  createdTo: string | null;
  subscriptions: SubscriptionView[];
}

const LIST_LIMIT = 500;

export async function retrieveSubscriptions(s: Services, workspace: Workspace, raw: unknown): Promise<SubscriptionList> {
  requireFeature(workspace, 'subscriptions');
  const input = parseInput(listInput, raw ?? {});
  const orderBy = [{ createdAt: 'asc' as const }, { id: 'asc' as const }];
  if (input.channelReference) {
    const issues = new IssueList();
    if (input.createdFrom != null || input.createdTo != null) issues.add(['channelReference'], 'not_with_dates');
    issues.throwIfAny();
    const subscriptions = await s.db.subscription.findMany({
      where: { workspaceId: workspace.id, channelReference: input.channelReference },
      orderBy,
      include: subscriptionInclude,
      take: LIST_LIMIT,
    });
    return { createdFrom: null, createdTo: null, subscriptions };
  }
  // Days as the workspace sees them, its test clock included.
  const range = parseDateRange(input, workspace.timeZone, workspaceNow(s, workspace));
  const subscriptions = await s.db.subscription.findMany({
    where: { workspaceId: workspace.id, createdAt: { gte: range.start, lt: range.end } },
    orderBy,
    include: subscriptionInclude,
    take: LIST_LIMIT,
  });
  return { createdFrom: range.from, createdTo: range.to, subscriptions };
}
