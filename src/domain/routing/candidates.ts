// The accounts that could take a payment, in the order to try them, each with why it is there.
// An explicit payment_provider_token is the only candidate. Otherwise the routing rules matching
// the card (by position; weighted split groups reordered per payment, split.ts) name accounts;
// those that cannot take this payment (currency, capability, installment count for this card)
// are left out; the rest are ordered by what they cost the merchant for this amount and
// installment count (costs.ts), priced ones before unpriced ones, equal costs in rule order. The
// workspace default follows as `fallback`, or is the one `default` candidate when no rule gave
// one. Pure: everything it reads comes in the request.
import type { AccountCost, PaymentAccount, RoutingRule } from '../../generated/prisma/client.ts';
import type { Capability } from '../../providers/types.ts';
import type { RateSource } from '../conversion.ts';
import { capabilityNames } from '../accounts.ts';
import { ruleMatches, type CardFacts } from './rules.ts';
import { chargeCurrency } from '../charge-currency.ts';
import { allowsInstallments } from '../installment-plan.ts';
import { ValidationError, type Path } from '../errors.ts';
import { costOf, type Cost } from './costs.ts';
import { orderRules } from './split.ts';

export type RoutedAccount = PaymentAccount & { routingRules: RoutingRule[]; costs: AccountCost[] };

export type CandidateReason = 'token' | 'rule' | 'cost' | 'default' | 'fallback';

export interface Candidate {
  account: RoutedAccount;
  reason: CandidateReason;
  /** The rule that named the account (rule and cost reasons). */
  ruleId: string | null;
  /** What the account costs for this payment; null when it has no price for it. */
  cost: Cost | null;
}

export interface RouteRequest {
  /** The workspace's live accounts with their rules and cost tables. */
  accounts: readonly RoutedAccount[];
  defaultAccountId: string | null;
  /** payment_provider_token given, if any. */
  token?: string | null;
  /** Where errors about the account are reported. */
  path: Path;
  card: CardFacts;
  installmentCount: number;
  /** What picks among weighted rules: the payment's id. */
  splitKey: string;
  /** Provider capabilities the payment needs (secure, non_secure, …). */
  needs?: readonly Capability[];
  /** Whether the account may do it (switched on and offered by its provider); default: the account's own flags. */
  supports?: (account: PaymentAccount, capability: Capability) => boolean;
  /** Conversion rates: with them a conversion account without a rate for this currency is left out. */
  rates?: RateSource;
}

/** The ordered candidates; throws the 422 of a token not found, or of no account at all. */
export function routeCandidates(req: RouteRequest): Candidate[] {
  const priced = (account: RoutedAccount) => costOf(account, req.card.bin, req.card.amount, req.installmentCount);
  if (req.token) {
    const account = req.accounts.find((a) => a.id === req.token);
    if (!account) throw ValidationError.single(req.path, 'account_not_found');
    return [{ account, reason: 'token', ruleId: null, cost: priced(account) }];
  }
  const routed = byCost(ruleCandidates(req).map(({ account, ruleId }) => ({ account, ruleId, cost: priced(account) })));
  const fallback = req.accounts.find((a) => a.id === req.defaultAccountId);
  if (routed.length === 0) {
    // The default is tried even when it cannot take the payment, so the caller reports why.
    if (!fallback) throw ValidationError.single(req.path, 'no_default_account');
    return [{ account: fallback, reason: 'default', ruleId: null, cost: priced(fallback) }];
  }
  const byPrice = routed.length > 1;
  const candidates: Candidate[] = routed.map((c) => ({ ...c, reason: byPrice && c.cost ? 'cost' : 'rule' }));
  if (fallback && eligible(fallback, req) && !routed.some((c) => c.account.id === fallback.id)) {
    candidates.push({ account: fallback, reason: 'fallback', ruleId: null, cost: priced(fallback) });
  }
  return candidates;
}

/** Accounts named by matching rules, in rule order (split groups picked), each once, eligible only. */
function ruleCandidates(req: RouteRequest): Array<{ account: RoutedAccount; ruleId: string }> {
  const rules = req.accounts.flatMap((account) => account.routingRules.map((rule) => ({ rule, account })));
  const seen = new Set<string>();
  const found: Array<{ account: RoutedAccount; ruleId: string }> = [];
  for (const { rule, account } of orderRules(rules, ({ rule }) => ruleMatches(rule, req.card), req.splitKey)) {
    if (seen.has(account.id) || !eligible(account, req)) continue;
    seen.add(account.id);
    found.push({ account, ruleId: rule.id });
  }
  return found;
}

/** Cheapest first; unknown costs after every known one; equal costs keep their order (a stable sort). */
function byCost<T extends { cost: Cost | null }>(list: T[]): T[] {
  return [...list].sort((a, b) => {
    if (!a.cost || !b.cost) return (a.cost ? 0 : 1) - (b.cost ? 0 : 1);
    return a.cost.total < b.cost.total ? -1 : a.cost.total > b.cost.total ? 1 : 0;
  });
}

const ownFlags = (account: PaymentAccount, capability: Capability): boolean => capabilityNames(account).includes(capability);

/** Whether the account can take this payment: its currency, the capabilities needed, the installment count on this card. */
export function eligible(account: PaymentAccount, req: Pick<RouteRequest, 'card' | 'installmentCount' | 'needs' | 'supports' | 'rates'>): boolean {
  const charged = chargeCurrency(account, req.card.currency);
  if (!charged) return false;
  if (charged !== req.card.currency && req.rates && !req.rates.rate(req.card.currency, charged)) return false;
  const supports = req.supports ?? ownFlags;
  if ((req.needs ?? []).some((need) => !supports(account, need))) return false;
  if (req.installmentCount === 1) return true;
  // Installments exist only in TRY, also when conversion charges the card in TRY's place.
  return charged === 'TRY' && allowsInstallments(account, req.card.bin, req.installmentCount);
}

/** What a payment row records of its account choice. */
export interface RoutingRecord {
  /** `health`: the account routing preferred was degraded; `fallback`: the accounts before it failed technically (a cascade). */
  routingReason: 'token' | 'rule' | 'cost' | 'default' | 'saved_card' | 'health' | 'fallback';
  /**
   * Of the account that charges: the rule that named it (null: none did) and its cost in minor
   * units (null: no price); the degraded account passed over (`passedOver`), or the one that failed
   * before a cascade (`failed`).
   */
  routingDetail: { ruleId: string | null; cost: number | null; passedOver?: string; failed?: string };
}

export function routingRecord(candidate: Pick<Candidate, 'reason' | 'ruleId' | 'cost'>): RoutingRecord {
  // A fallback is never first today; recorded, it is the default it is.
  const routingReason = candidate.reason === 'fallback' ? 'default' : candidate.reason;
  return { routingReason, routingDetail: { ruleId: candidate.ruleId, cost: candidate.cost ? Number(candidate.cost.total) : null } };
}
