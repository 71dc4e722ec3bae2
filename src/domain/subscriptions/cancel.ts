// cancel-subscription (shape "not shown" in the contract; designed in docs/decisions.md): request
// `subscription.token`, body-form signature, response the subscription. No refund.
// - A paid period running (status active): it stays active with cancelled_at set
//   (subscription.cancelled) and ends at ends_at (cancelled, subscription.ended; renewals.ts).
//   A renewal charge already at the bank counts as that: its outcome decides (transitions.ts).
// - No paid period (pending, past_due): it ends at once (subscription.cancelled, then .ended), and
//   a 3D page still waiting stops working.
// - Cancelled or ended already: 422.
import type { Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { parseInput } from '../validation.ts';
import { requireFeature } from '../plans.ts';
import { NotFoundError, StateError } from '../errors.ts';
import { recordEvent } from '../events.ts';
import { clockOf, workspaceTime } from '../workspace-clock.ts';
import { lockSubscription, TOKEN_PATH, tokenInput } from './retrieve.ts';
import { supersedeWaitingPages } from './pay.ts';
import { loadSubscriptionView, type SubscriptionView } from './view.ts';

export async function cancelSubscription(s: Services, workspace: Workspace, raw: unknown): Promise<SubscriptionView> {
  requireFeature(workspace, 'subscriptions');
  const { subscription } = parseInput(tokenInput, raw);
  const at = s.clock.now();
  await s.db.$transaction(async (tx) => {
    const sub = await lockSubscription(tx, subscription.token, workspace.id);
    if (!sub) throw NotFoundError.single(TOKEN_PATH, 'subscription_not_found');
    if (sub.cancelledAt) throw StateError.single(TOKEN_PATH, 'subscription_already_cancelled');
    if (sub.status === 'cancelled' || sub.status === 'completed') throw StateError.single(TOKEN_PATH, 'subscription_already_ended');
    const now = workspaceTime(await clockOf(tx, workspace.id), at);
    const event = (kind: 'subscription.cancelled' | 'subscription.ended') => recordEvent(tx, { workspaceId: workspace.id, kind, recordToken: sub.id }, at);
    if (sub.status === 'active') {
      await tx.subscription.update({ where: { id: sub.id }, data: { cancelledAt: now } });
      await event('subscription.cancelled');
      return;
    }
    await supersedeWaitingPages(tx, sub.id, at);
    await tx.subscription.update({ where: { id: sub.id }, data: { status: 'cancelled', cancelledAt: now, endedAt: now } });
    await event('subscription.cancelled');
    await event('subscription.ended');
  });
  return loadSubscriptionView(s.db, subscription.token);
}
