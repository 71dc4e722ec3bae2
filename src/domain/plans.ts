// Plan coverage (contract convention 9): a feature outside the workspace's plan is a 403.
import type { Workspace } from '../generated/prisma/client.ts';
import { ForbiddenError } from './errors.ts';

export type Feature = 'orders' | 'saved_cards' | 'subscriptions' | 'payment_links';

export function requireActive(workspace: Workspace): void {
  if (!workspace.active) throw new ForbiddenError('workspace_inactive');
}

export function covers(workspace: Workspace, feature: Feature): boolean {
  switch (feature) {
    case 'orders':
      return workspace.planOrders;
    case 'saved_cards':
      return workspace.planSavedCards;
    case 'subscriptions':
      return workspace.planSubscriptions && workspace.planSavedCards;
    case 'payment_links':
      return workspace.planPaymentLinks;
  }
}

export function requireFeature(workspace: Workspace, feature: Feature): void {
  requireActive(workspace);
  if (!covers(workspace, feature)) {
    const code = ({ orders: 'plan_orders', saved_cards: 'plan_saved_cards', subscriptions: 'plan_subscriptions', payment_links: 'plan_payment_links' } as const)[feature];
    throw new ForbiddenError(code);
  }
  if (feature === 'payment_links' && !workspace.payByLinkEnabled) throw new ForbiddenError('module_pay_by_link_off');
}
