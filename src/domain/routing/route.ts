// A payment's route, the one entry the attempt asks once: the account routing chooses for it
// (choice.ts), passed over for the next that charges the same while health keeps it out
// (health.ts), and, once its provider fails technically, the accounts it moves to (cascade.ts).
// Every account the payment is on is recorded with why, and with its own rule and cost.
import type { PaymentAccount, Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { ProviderTimeoutError, type Connector } from '../../providers/types.ts';
import { ValidationError, type Path } from '../errors.ts';
import { firstRoute, requireCapabilities, routeFor, routingFacts, type AccountChoice } from './choice.ts';
import type { Candidate, RoutingRecord } from './candidates.ts';
import { fallbackAccounts, isTechnical, retryKey, type Fallback } from './cascade.ts';
import { claimRoute, observeCall, releaseClaim, type CallOutcome } from './health.ts';

export interface RouteRequest<P> {
  workspace: Workspace;
  choice: AccountChoice;
  /** A saved card's own account: the payment goes there, and never moves. */
  savedCard: { account: PaymentAccount; path: Path } | null;
  /** What the payment charges at an account; throws a ValidationError when the account cannot take it. */
  price(account: PaymentAccount): Promise<P>;
  /** Whether two prices charge exactly the same: a payment moves only to an account charging what the first would. */
  samePrice(a: P, b: P): boolean;
}

/** Where the payment is: the account, why (the payment row's routing columns) and its price there. */
export interface Stop<P> {
  account: PaymentAccount;
  routing: RoutingRecord;
  priced: P;
}

/** A move after a technical failure, to be recorded on the payment row before the account is asked. */
export interface Move {
  account: PaymentAccount;
  routing: RoutingRecord;
  attemptNumber: number;
}

export interface PaymentRoute<P> extends Stop<P> {
  /**
   * Asks the route's account, and while the answer is a technical failure the next eligible
   * account (cascade.ts); `moved` records each move before that account is asked. Each try's
   * outcome is judged for the account's health (health.ts). The other accounts are looked up only
   * after a first technical failure: a payment that goes through costs nothing more.
   */
  call<A extends { status: string }>(keyBase: string, ask: (provider: Connector, key: string) => Promise<A>, moved: (to: Move) => Promise<void>): Promise<A>;
  /**
   * Gives back the probe of a degraded account this route claimed (health.ts), for a payment that
   * will not call it after all (refused by the risk decision): the next payment probes it instead
   * of waiting a cool-down more. Nothing when the route claimed none.
   */
  release(): Promise<void>;
}

/** Chooses the payment's account; a 422 (ValidationError) when it cannot be paid where routing names. */
export async function routePayment<P>(s: Services, req: RouteRequest<P>): Promise<PaymentRoute<P>> {
  if (req.savedCard) {
    const { account, path } = req.savedCard;
    requireCapabilities(s, account, req.choice.needs, path);
    const stop: Stop<P> = { account, routing: { routingReason: 'saved_card', routingDetail: { ruleId: null, cost: null } }, priced: await req.price(account) };
    const at = s.clock.now();
    return withCalls(s, req, stop, null, (await claimRoute(s, account, req.workspace, at)) ? at : null);
  }
  const candidates = await routeFor(s, req.workspace, req.choice);
  const chosen = firstRoute(s, req.choice, candidates);
  const stop: Stop<P> = { ...chosen, priced: await req.price(chosen.account) };
  // An account the merchant named never moves.
  const movable = req.choice.token ? null : candidates;
  const at = s.clock.now();
  const claimed = await claimRoute(s, stop.account, req.workspace, at);
  if (claimed || !movable) return withCalls(s, req, stop, movable, claimed ? at : null);
  // Degraded, or probed by another payment (health.ts): the first eligible account that charges
  // the same, whatever the cascade's bound; when there is none, the degraded one is tried all the same.
  const [healthy] = await fallbacks(s, req, stop, movable, 1);
  if (!healthy) return withCalls(s, req, stop, movable, null);
  const passedOver: Stop<P> = { account: healthy.account, routing: recorded('health', healthy, { passedOver: stop.account.id }), priced: await req.price(healthy.account) };
  return withCalls(s, req, passedOver, movable, null);
}

/**
 * The route with its calls; `candidates` null when the payment may not move (a saved card, a named
 * account); `claimedAt`: when routing claimed the first account's probe (health.ts), if it did.
 */
function withCalls<P>(s: Services, req: RouteRequest<P>, first: Stop<P>, candidates: readonly Candidate[] | null, claimedAt: Date | null): PaymentRoute<P> {
  return {
    ...first,
    release: () => (claimedAt && first.account.health === 'degraded' ? releaseClaim(s, first.account, claimedAt) : Promise.resolve()),
    async call<A extends { status: string }>(keyBase: string, ask: (provider: Connector, key: string) => Promise<A>, moved: (to: Move) => Promise<void>): Promise<A> {
      let account = first.account;
      let next: Fallback[] | null = null;
      const lookUp = async () => (candidates ? fallbacks(s, req, first, candidates, req.workspace.cascadeExtraAttempts) : []);
      for (let attempt = 1; ; attempt++) {
        const key = retryKey(keyBase, attempt);
        const observe = (outcome: CallOutcome) => observeCall(s, { workspace: req.workspace, account, outcome, idempotencyKey: key });
        let answer: A | null = null;
        try {
          answer = await ask(s.providers.forAccount(account), key);
        } catch (err) {
          observe(err instanceof ProviderTimeoutError ? 'technical' : 'other');
          if (!isTechnical(err)) throw err;
          next ??= await lookUp();
          if (next.length === 0) throw err;
        }
        if (answer) observe(isTechnical(answer) ? 'technical' : 'success');
        if (answer && !isTechnical(answer)) return answer;
        next ??= await lookUp();
        if (answer && next.length === 0) return answer;
        const to = next.shift()!;
        await moved({ account: to.account, routing: recorded('fallback', to, { failed: account.id }), attemptNumber: attempt + 1 });
        account = to.account;
      }
    },
  };
}

/** Accounts after `from` that can take the payment and charge exactly what it charges there. */
function fallbacks<P>(s: Services, req: RouteRequest<P>, from: Stop<P>, candidates: readonly Candidate[], limit: number): Promise<Fallback[]> {
  return fallbackAccounts(s, {
    limit,
    preferred: candidates,
    workspace: req.workspace,
    first: from.account,
    card: routingFacts(req.choice),
    installmentCount: req.choice.installmentCount ?? 1,
    canTake: async (account) => {
      try {
        requireCapabilities(s, account, req.choice.needs, req.choice.path);
        return req.samePrice(await req.price(account), from.priced);
      } catch (err) {
        if (err instanceof ValidationError || err instanceof ProviderTimeoutError) return false;
        throw err;
      }
    },
  });
}

/** The record of a payment moved to `to`: its own rule and cost, and the account it left. */
function recorded(routingReason: 'health' | 'fallback', to: Fallback, left: { passedOver: string } | { failed: string }): RoutingRecord {
  return { routingReason, routingDetail: { ruleId: to.ruleId, cost: to.cost ? Number(to.cost.total) : null, ...left } };
}
