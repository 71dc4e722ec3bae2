// Which payment account takes a payment, a quote or a preview, and whether it can: an explicit
// token, else the cheapest account the routing rules matching the card name among those that can
// take it (candidates.ts), else the workspace default; then the capabilities the owner needs.
// Payments (route.ts), quotes (quotes.ts) and previews (preview.ts) all rank here, on the same
// amount. Records paid later on a hosted page (orders, subscriptions, links) check the account at
// creation with `checkAccountForLater`.
import { randomUUID } from 'node:crypto';
import type { PaymentAccount, Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import type { BinInfo, Capability as ProviderCapability } from '../../providers/types.ts';
import type { Currency } from '../money.ts';
import type { MessageCode } from '../messages.ts';
import { findAccount, liveAccounts, withoutRules } from '../accounts.ts';
import { routeCandidates, routingRecord, type Candidate, type RoutingRecord } from './candidates.ts';
import type { CardFacts } from './rules.ts';
import { planCharge } from '../charge-currency.ts';
import { providerSupports } from '../account-credentials.ts';
import { IssueList, ValidationError, type Path } from '../errors.ts';

/** Capability flags an owner may require, with the message naming each when missing. */
const MISSING: Record<Capability, MessageCode> = {
  secure: 'account_no_secure',
  nonSecure: 'account_no_non_secure',
  cardStorage: 'account_no_card_storage',
  hostedPage: 'account_no_hosted_page',
};
export type Capability = 'secure' | 'nonSecure' | 'cardStorage' | 'hostedPage';

const WIRE: Record<Capability, ProviderCapability> = { secure: 'secure', nonSecure: 'non_secure', cardStorage: 'card_storage', hostedPage: 'hosted_page' };

/** What the account may do: switched on for the account, and something its provider can do at all. */
export function requireCapabilities(s: Services, account: PaymentAccount, needs: readonly Capability[], path: Path): void {
  const issues = new IssueList();
  for (const need of needs) if (!providerSupports(s.providers, account, WIRE[need])) issues.add(path, MISSING[need]);
  issues.throwIfAny();
}

export interface AccountChoice {
  /** payment_provider_token sent (or stored on the owner record), if any. */
  token: string | null;
  /** Where errors about the account are reported. */
  path: Path;
  /** The card's BIN facts; null when unknown. */
  card: BinInfo | null;
  currency: Currency;
  /**
   * The amount the merchant asked, before any installment surcharge. Rules match it and costs are
   * ranked on it, for a payment as for the quote before it: a quote cannot know the surcharged
   * total before the shopper picks a count, so ranking on it would name another account than the
   * one that charges (docs/decisions.md, "Routing by cost").
   */
  baseAmount: bigint;
  needs: readonly Capability[];
  /** Installments asked for (default 1): which accounts offer them and what they cost depend on it. */
  installmentCount?: number;
  /** What picks among weighted routing rules: the payment's id (default: a random one). */
  splitKey?: string;
}

/** The account of an attempt and why it was chosen (the payment row's `routingReason`, `routingDetail`). */
export interface Route {
  account: PaymentAccount;
  routing: RoutingRecord;
}

/** The first candidate, checked for the capabilities needed, with the reason to record. */
export async function chooseRoute(s: Services, workspace: Workspace, choice: AccountChoice): Promise<Route> {
  return firstRoute(s, choice, await routeFor(s, workspace, choice));
}

/** The first of candidates already found, checked like `chooseRoute`'s. */
export function firstRoute(s: Services, choice: AccountChoice, candidates: readonly Candidate[]): Route {
  const first = candidates[0]!;
  const account = withoutRules(first.account);
  requireCapabilities(s, account, choice.needs, choice.path);
  return { account, routing: routingRecord(first) };
}

/**
 * Every account that could take the attempt, in order, with its reason and cost (candidates.ts).
 * Never empty: no account at all is a 422 on `choice.path`.
 */
export async function routeFor(s: Services, workspace: Workspace, choice: AccountChoice): Promise<Candidate[]> {
  return routeCandidates({
    accounts: await liveAccounts(s.db, workspace),
    defaultAccountId: workspace.defaultPaymentAccountId,
    token: choice.token,
    path: choice.path,
    card: routingFacts(choice),
    installmentCount: choice.installmentCount ?? 1,
    splitKey: choice.splitKey ?? randomUUID(),
    needs: choice.needs.map((need) => WIRE[need]),
    supports: (account, capability) => providerSupports(s.providers, account, capability),
    rates: s.rates,
  });
}

/** What rules match and costs rank: the card, the currency and the amount asked. */
export const routingFacts = (choice: Pick<AccountChoice, 'card' | 'currency' | 'baseAmount'>): CardFacts => ({ bin: choice.card, currency: choice.currency, amount: choice.baseAmount });

/**
 * At the creation of a record paid later: a given account must exist, have the capabilities and
 * take the currency; without one, selection happens at payment time, but the workspace default
 * must exist and have the capabilities (contract: Errors of order-payment, subscription-payment,
 * create-payment-link). Returns the given account, or null when selection is deferred.
 */
export async function checkAccountForLater(
  s: Services,
  workspace: Workspace,
  req: { token: string | null; path: Path; needs: readonly Capability[]; currency: Currency; amount: bigint; currencyPath: Path },
): Promise<PaymentAccount | null> {
  if (req.token) {
    const account = await findAccount(s.db, workspace.id, req.token);
    if (!account) throw ValidationError.single(req.path, 'account_not_found');
    requireCapabilities(s, account, req.needs, req.path);
    planCharge(account, req.amount, req.currency, s.rates, req.currencyPath);
    return account;
  }
  const fallback = workspace.defaultPaymentAccountId ? await findAccount(s.db, workspace.id, workspace.defaultPaymentAccountId) : null;
  if (!fallback) throw ValidationError.single(req.path, 'no_default_account');
  requireCapabilities(s, fallback, req.needs, req.path);
  return null;
}
