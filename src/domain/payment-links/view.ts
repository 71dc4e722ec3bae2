// A payment link as its responses show it: open or not, its checkout address while it can be
// paid, the amounts of a fixed link (VAT contained in the item prices), and its payments.
import type { LinkPayment, Payment, PaymentLink, PaymentLinkItem, Workspace } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import { endOfDay } from '../date-range.ts';
import { orderTotals, type OrderTotals } from '../orders/view.ts';
import { covers } from '../plans.ts';

export type LinkView = PaymentLink & { items: PaymentLinkItem[] };

export const linkInclude = { items: { orderBy: { position: 'asc' as const } } };

/**
 * For reads that include a link as a relation. Prisma 7.10 cannot read a BigInt[] column
 * (predefinedAmounts) through a relation join ("e.map is not a function"), so such a read loads
 * the link with a query of its own instead of the schema's default join (docs/decisions.md).
 */
export const LINK_AS_RELATION = { relationLoadStrategy: 'query' } as const;

export async function loadLinkView(db: Tx, id: string): Promise<LinkView> {
  return db.paymentLink.findUniqueOrThrow({ where: { id }, include: linkInclude });
}

/** Open and its last valid day not over (contract: `is_active`). */
export function isOpen(link: Pick<PaymentLink, 'isActive' | 'expiresAt'>, now: Date): boolean {
  return link.isActive && (link.expiresAt === null || now <= link.expiresAt);
}

/** The links that are open (`isOpen`) or, for `false`, closed, as a where condition: the same rule. */
export function openLinksWhere(open: boolean, now: Date) {
  const notOver = { OR: [{ expiresAt: null }, { expiresAt: { gte: now } }] };
  return open ? { AND: [{ isActive: true }, notOver] } : { NOT: { AND: [{ isActive: true }, notOver] } };
}

/** Payable: open, and the workspace's plan and pay-by-link module allow links (contract: `checkout_url`). */
export function isPayable(link: Pick<PaymentLink, 'isActive' | 'expiresAt'>, workspace: Workspace, now: Date): boolean {
  return isOpen(link, now) && workspace.active && covers(workspace, 'payment_links') && workspace.payByLinkEnabled;
}

export function linkCheckoutUrl(baseUrl: string, linkId: string): string {
  return `${baseUrl}/checkout/link/${linkId}`;
}

/** Amounts of a fixed link, from its current items; null for the types where the payer decides. */
export function fixedTotals(link: LinkView): OrderTotals | null {
  return link.amountType === 'fixed' ? orderTotals(link.items) : null;
}

export function expiresAtOf(expiresOn: string | null, timeZone: string): Date | null {
  return expiresOn === null ? null : endOfDay(expiresOn, timeZone);
}

export type LinkPaymentView = LinkPayment & { payment: Payment | null; link: Pick<PaymentLink, 'id'> };
