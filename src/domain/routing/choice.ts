// Which payment account takes an attempt (contract convention 10) and whether it can: an explicit
// token, else the cheapest account the routing rules matching the card name among those that can
// take it (routing/candidates.ts), else the workspace default; then the capabilities the owner
// needs. Records paid later on a hosted page (orders, subscriptions,
// links) check the account at creation with `checkAccountForLater`.
import type { PaymentAccount, Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import type { Capability as ProviderCapability } from '../../providers/types.ts';
import type { Currency } from '../money.ts';
import type { MessageCode } from '../messages.ts';
import { accountCandidates, findAccount, withoutRules, type CardFacts } from '../accounts.ts';
import { routingRecord, type Candidate, type RoutingRecord } from '../routing/candidates.ts';
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
  card: CardFacts;
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

/** The account of an attempt: the saved card's own account when there is one, else selection. */
export async function chooseAccount(s: Services, workspace: Workspace, choice: AccountChoice, savedCardAccount?: { account: PaymentAccount; path: Path } | null): Promise<PaymentAccount> {
  return (await chooseRoute(s, workspace, choice, savedCardAccount)).account;
}

/** `chooseAccount` with the reason to record on the payment row. */
export async function chooseRoute(s: Services, workspace: Workspace, choice: AccountChoice, savedCardAccount?: { account: PaymentAccount; path: Path } | null): Promise<Route> {
  if (savedCardAccount) {
    requireCapabilities(s, savedCardAccount.account, choice.needs, savedCardAccount.path);
    return { account: savedCardAccount.account, routing: { routingReason: 'saved_card', routingDetail: { ruleId: null, cost: null } } };
  }
  const [first] = await routeFor(s, workspace, choice);
  const account = withoutRules(first!.account);
  requireCapabilities(s, account, choice.needs, choice.path);
  return { account, routing: routingRecord(first!) };
}

/** Every account that could take the attempt, in order, with its reason and cost (routing/candidates.ts). */
export function routeFor(s: Services, workspace: Workspace, choice: AccountChoice): Promise<Candidate[]> {
  return accountCandidates(s.db, workspace, {
    token: choice.token,
    path: choice.path,
    card: choice.card,
    installmentCount: choice.installmentCount,
    splitKey: choice.splitKey,
    needs: choice.needs.map((need) => WIRE[need]),
    supports: (account, capability) => providerSupports(s.providers, account, capability),
    rates: s.rates,
  });
}

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
