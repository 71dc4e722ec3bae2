// A subscription with what its responses and its checkout page show: items with their catalog
// products, the current (newest) period, the customer, and the checkout address.
import type { Customer, Product, Subscription, SubscriptionItem, SubscriptionPeriod } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';

export type SubscriptionView = Subscription & {
  items: Array<SubscriptionItem & { product: Product }>;
  /** The current period only (the newest). */
  periods: SubscriptionPeriod[];
  customer: Customer;
};

export const subscriptionInclude = {
  items: { orderBy: { position: 'asc' as const }, include: { product: true } },
  periods: { orderBy: { number: 'desc' as const }, take: 1 },
  customer: true,
};

export async function loadSubscriptionView(db: Tx, id: string): Promise<SubscriptionView> {
  return db.subscription.findUniqueOrThrow({ where: { id }, include: subscriptionInclude });
}

/** The newest period: the one running, being paid, or the last one of an ended subscription. */
export function currentPeriod(view: { periods: SubscriptionPeriod[] }): SubscriptionPeriod {
  const period = view.periods[0];
  // Every subscription is created with its first period.
  if (!period) throw new Error('subscription without a period');
  return period;
}

/** contract: set while the period is unpaid (first payment, or past due) and the subscription is not cancelled. */
export function isPayable(sub: Pick<Subscription, 'status' | 'cancelledAt'>): boolean {
  return (sub.status === 'pending' || sub.status === 'past_due') && sub.cancelledAt === null;
}

export function checkoutUrlOf(baseUrl: string, sub: Pick<Subscription, 'id' | 'status' | 'cancelledAt'>): string | null {
  return isPayable(sub) ? `${baseUrl}/checkout/subscription/${sub.id}` : null;
}

/** The page a customer goes back to after a failed 3D step on the subscription page. */
export function retryPageOf(subscriptionId: string, paymentId: string): string {
  return `/checkout/subscription/${subscriptionId}?attempt=${paymentId}`;
}
