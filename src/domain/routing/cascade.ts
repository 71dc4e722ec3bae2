// Cascade: a payment whose provider failed for a technical reason is tried on the next eligible
// account, at most `cascadeExtraAttempts` more (a workspace setting, default 2). Technical means
// the provider answered with an error of its own (a ProviderFailure) or the connection failed
// before the request went out (ProviderUnreachableError). Never after a decline (the card was
// refused), never after a timeout (the outcome is unknown: the payment stays unresolved and is
// reconciled), never after a 3-D Secure redirect (the shopper is at that bank), never for a saved
// card (it lives at its account) or an account the merchant named (payment_provider_token).
// Each try has its own idempotency key at the provider (`retryKey`) and the payment settles once.
import type { PaymentAccount, Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { ProviderUnreachableError } from '../../providers/types.ts';
import { liveAccounts, withoutRules } from '../accounts.ts';
import type { Candidate } from './candidates.ts';
import { costOf } from './costs.ts';
import type { CardFacts } from './rules.ts';
import { claimRoute, routable } from './health.ts';

/** Whether a provider's answer or exception lets the payment move to another account. */
export function isTechnical(outcome: { status: string } | unknown): boolean {
  if (outcome instanceof ProviderUnreachableError) return true;
  return typeof outcome === 'object' && outcome !== null && (outcome as { status?: unknown }).status === 'error';
}

/** The idempotency key of a payment's n-th try: the first keeps the plain key (`<id>:charge`). */
export function retryKey(base: string, attemptNumber: number): string {
  return attemptNumber <= 1 ? base : `${base}:${attemptNumber}`;
}

export interface FallbackRequest {
  /** How many to find at most (the workspace's bound for a cascade). */
  limit: number;
  workspace: Workspace;
  /** Routing's candidates for the payment, in its order (candidates.ts). */
  preferred: readonly Candidate[];
  /** The account the payment went to first. */
  first: PaymentAccount;
  /** What prices an account that no rule named (choice.ts `routingFacts`), and the installment count. */
  card: CardFacts;
  installmentCount: number;
  /** Whether the account can take the payment (capabilities) and charge exactly what the first was asked to. */
  canTake(account: PaymentAccount): Promise<boolean>;
}

/** An account a payment may move to, with the rule that named it and its cost (none: no rule, no price). */
export type Fallback = Pick<Candidate, 'ruleId' | 'cost'> & { account: PaymentAccount };

/**
 * The accounts a payment may move to after its first account failed technically, in order:
 * routing's own candidates for it (rules by cost and position, then the default), then the
 * workspace's other accounts, oldest first; each live, of the same mode, routable by health, and
 * able to take the payment as the first would have (`canTake`). At most `limit`. A degraded account
 * past its cool-down is listed only when this payment wins its probe (health.ts claimRoute).
 */
export async function fallbackAccounts(s: Services, req: FallbackRequest): Promise<Fallback[]> {
  if (req.limit <= 0) return [];
  const others = (await liveAccounts(s.db, req.workspace)).map((account) => ({ account, ruleId: null, cost: costOf(account, req.card.bin, req.card.amount, req.installmentCount) }));
  const ordered = [...req.preferred, ...others].filter((c, i, all) => all.findIndex((o) => o.account.id === c.account.id) === i);
  const now = s.clock.now();
  const found: Fallback[] = [];
  for (const { account: routed, ruleId, cost } of ordered) {
    if (found.length >= req.limit) break;
    const account = withoutRules(routed);
    if (account.id === req.first.id || account.mode !== req.first.mode || !routable(account, req.workspace, now)) continue;
    if ((await req.canTake(account)) && (await claimRoute(s, account, req.workspace, now))) found.push({ account, ruleId, cost });
  }
  return found;
}
