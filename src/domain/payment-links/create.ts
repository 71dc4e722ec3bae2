// create-payment-link and update-payment-link: a link paid repeatedly on its hosted page. Every
// create opens a new link, even with a repeated reference; without one it is LINK<n>, numbered
// per workspace by an atomic increment, so parallel creates never share a number.
import type { Workspace } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import type { Services } from '../services.ts';
import { requireFeature } from '../plans.ts';
import { NotFoundError } from '../errors.ts';
import { isUuid } from '../validation.ts';
import { checkAccountForLater } from '../routing/choice.ts';
import { orderTotals } from '../orders/view.ts';
import { parseCreateLink, parseUpdateLink, type LinkDefinition } from './input.ts';
import { expiresAtOf, linkInclude, loadLinkView, type LinkView } from './view.ts';

export async function createPaymentLink(s: Services, workspace: Workspace, raw: unknown): Promise<LinkView> {
  requireFeature(workspace, 'payment_links');
  const link = parseCreateLink(raw, workspace.timeZone, s.clock.now());
  await checkLinkAccount(s, workspace, link);
  const created = await s.db.$transaction(async (tx) => {
    const reference = link.reference ?? `LINK${await nextLinkNumber(tx, workspace.id)}`;
    return tx.paymentLink.create({
      data: { ...columns(link, workspace.timeZone), reference, workspaceId: workspace.id, createdAt: s.clock.now(), items: { create: itemRows(link) } },
    });
  });
  return loadLinkView(s.db, created.id);
}

export async function updatePaymentLink(s: Services, workspace: Workspace, raw: unknown): Promise<LinkView> {
  requireFeature(workspace, 'payment_links');
  const token = (raw as { token?: unknown } | null)?.token;
  const current = typeof token === 'string' && isUuid(token) ? await s.db.paymentLink.findFirst({ where: { id: token, workspaceId: workspace.id }, include: linkInclude }) : null;
  if (!current) throw NotFoundError.single(['token'], 'link_not_found');
  const { link } = parseUpdateLink(raw, definitionOf(current), workspace.timeZone, s.clock.now());
  await checkLinkAccount(s, workspace, link);
  await s.db.$transaction(async (tx) => {
    // Items are replaced as a whole: payments keep their own copy (LinkPayment.items).
    await tx.paymentLinkItem.deleteMany({ where: { linkId: current.id } });
    await tx.paymentLink.update({
      where: { id: current.id },
      data: { ...columns(link, workspace.timeZone), reference: link.reference ?? current.reference, items: { create: itemRows(link) } },
    });
  });
  return loadLinkView(s.db, current.id);
}

/** The account given (or the default) must take payments on the hosted page, with 3D. */
async function checkLinkAccount(s: Services, workspace: Workspace, link: LinkDefinition): Promise<void> {
  await checkAccountForLater(s, workspace, {
    token: link.paymentProviderToken,
    path: ['paymentLink', 'paymentProviderToken'],
    needs: ['hostedPage', 'secure'],
    currency: link.currency,
    amount: link.amountType === 'fixed' ? orderTotals(link.items).amount : 0n,
    currencyPath: ['paymentLink', 'currency'],
  });
}

async function nextLinkNumber(tx: Tx, workspaceId: string): Promise<number> {
  const { linkCounter } = await tx.workspace.update({ where: { id: workspaceId }, data: { linkCounter: { increment: 1 } }, select: { linkCounter: true } });
  return linkCounter;
}

function columns(link: LinkDefinition, timeZone: string) {
  return {
    paymentAccountId: link.paymentProviderToken,
    description: link.description,
    amountType: link.amountType,
    itemName: link.itemName,
    predefinedAmounts: link.predefinedAmounts,
    taxRate: link.taxRate,
    taxMode: link.taxMode,
    currency: link.currency,
    currencyType: link.currencyType,
    currencies: link.currencies,
    emailsCustomer: link.emailsCustomer,
    isActive: link.isActive,
    expiresOn: link.expiresOn,
    expiresAt: expiresAtOf(link.expiresOn, timeZone),
  };
}

function itemRows(link: LinkDefinition) {
  return link.items.map((i) => ({ position: i.position, reference: i.reference, name: i.name, quantity: i.quantity, unitAmount: i.unitAmount, taxRate: i.taxRate }));
}

function definitionOf(link: LinkView): LinkDefinition {
  return {
    currency: link.currency,
    amountType: link.amountType,
    items: link.items.map((i) => ({ position: i.position, reference: i.reference, name: i.name, quantity: i.quantity, unitAmount: i.unitAmount, taxRate: i.taxRate })),
    itemName: link.itemName,
    predefinedAmounts: link.predefinedAmounts,
    taxRate: link.taxRate,
    taxMode: link.taxMode,
    currencyType: link.currencyType,
    currencies: link.currencies,
    reference: link.reference,
    description: link.description,
    paymentProviderToken: link.paymentAccountId,
    emailsCustomer: link.emailsCustomer,
    expiresOn: link.expiresOn,
    isActive: link.isActive,
  };
}
