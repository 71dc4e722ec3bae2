// retrieve-payment-links (contract): by token, by reference, or by a date range of at most 7 days in
// the workspace time zone (empty body: the last 7 days). Oldest first; each link with the count of
// its payment attempts and the latest 50, newest first. Never another workspace's links.
// retrieve-link-payments (designed): the link payments of one link, or one link payment.
import { z } from 'zod';
import type { Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { orderNumberReference, parseInput, uuid } from '../validation.ts';
import { requireFeature } from '../plans.ts';
import { IssueList } from '../errors.ts';
import { parseDateRange } from '../date-range.ts';
import { linkInclude, type LinkView } from './view.ts';

export const LATEST_TRANSACTIONS = 50;
const LIST_LIMIT = 500;

export const listInput = z.object({
  token: uuid().nullish(),
  reference: orderNumberReference().nullish(),
  createdFrom: z.string({ error: 'invalid_type' }).nullish(),
  createdTo: z.string({ error: 'invalid_type' }).nullish(),
});

export interface LinkList {
  createdFrom: string | null;
  createdTo: string | null;
  paymentLinks: LinkView[];
}

export async function retrievePaymentLinks(s: Services, workspace: Workspace, raw: unknown): Promise<LinkList> {
  requireFeature(workspace, 'payment_links');
  const input = parseInput(listInput, raw ?? {});
  const hasDates = input.createdFrom != null || input.createdTo != null;
  const issues = new IssueList();
  if (input.token && (input.reference || hasDates)) issues.add(['token'], 'token_not_combinable');
  else if (input.reference && hasDates) issues.add(['reference'], 'not_with_dates');
  issues.throwIfAny();

  const orderBy = [{ createdAt: 'asc' as const }, { id: 'asc' as const }];
  if (input.token || input.reference) {
    const where = input.token ? { id: input.token } : { reference: input.reference! };
    const paymentLinks = await s.db.paymentLink.findMany({ where: { workspaceId: workspace.id, ...where }, orderBy, include: linkInclude, take: LIST_LIMIT });
    return { createdFrom: null, createdTo: null, paymentLinks };
  }
  const range = parseDateRange(input, workspace.timeZone, s.clock.now());
  const paymentLinks = await s.db.paymentLink.findMany({
    where: { workspaceId: workspace.id, createdAt: { gte: range.start, lt: range.end } },
    orderBy,
    include: linkInclude,
    take: LIST_LIMIT,
  });
  return { createdFrom: range.from, createdTo: range.to, paymentLinks };
}

export const linkPaymentsInput = z.object({ token: uuid().nullish(), linkPaymentToken: uuid().nullish() });

/** By link token (all its link payments, oldest first) or by one link payment's token. */
export async function retrieveLinkPayments(s: Services, workspace: Workspace, raw: unknown) {
  requireFeature(workspace, 'payment_links');
  const input = parseInput(linkPaymentsInput, raw ?? {});
  const issues = new IssueList();
  if (!input.token && !input.linkPaymentToken) issues.add(['token'], 'required');
  if (input.token && input.linkPaymentToken) issues.add(['linkPaymentToken'], 'token_not_combinable');
  issues.throwIfAny();
  const where = input.token ? { linkId: input.token } : { id: input.linkPaymentToken! };
  return s.db.linkPayment.findMany({
    where: { workspaceId: workspace.id, ...where },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: { payment: true },
    take: LIST_LIMIT,
  });
}
