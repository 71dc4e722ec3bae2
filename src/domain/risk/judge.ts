// The risk decision of a payment attempt, taken before an account is chosen or a bank is asked
// (payments/attempt.ts): allow, block, or require 3-D Secure. A number that fails the Luhn check is
// refused without a statement; every other attempt a shopper makes is counted by the card-testing
// guard (guard.ts) in one statement. Renewals the merchant scheduled are judged as their own source
// and are not counted: no shopper is there to test cards. The decision, the rules that fired and
// the figures they saw are kept on the payment (`risk`). What each outcome does to the payment:
// docs/decisions.md, "Risk decisions".
import type { Services } from '../services.ts';
import type { PaymentSource } from '../payments/owners.ts';
import type { CardSource } from '../payments/card-source.ts';
import type { Workspace } from '../../generated/prisma/client.ts';
import { luhnValid } from '../cards.ts';
import { cardFingerprint } from './fingerprint.ts';
import { countAttempt, guardSources, type SourceFigures, type SourceKind } from './guard.ts';

export type RiskOutcome = 'allow' | 'block' | 'require_3ds';

/** The failed payment's `error_code` for each refusal. */
export type RiskCode = 'invalid_card_number' | 'blocked' | '3ds_required';

export type FiredRule = {
  /** `luhn`, or `<source>_<what>`: ip_cards, ip_cards_3ds, ip_declines, target_declines, workspace_declines, <source>_cooldown. */
  rule: string;
  outcome: Exclude<RiskOutcome, 'allow'>;
  /** The figure the rule read and the threshold it met (null for the Luhn check and cool-downs). */
  saw: number | null;
  threshold: number | null;
};

/** What the payment keeps (`Payment.risk`), in GraphQL as `Payment.risk`; a type, not an interface, so it is a JSON value. */
export type RiskRecord = {
  outcome: RiskOutcome;
  /** Who made the attempt: the payment's source, or `renewal` for a renewal the merchant scheduled. */
  source: PaymentSource | 'renewal';
  /** Whether the card-testing guard counted this attempt (off for the workspace, or not a shopper's). */
  guarded: boolean;
  rules: FiredRule[];
  /** Each source's counts; `cards` is not counted for the workspace (null). */
  figures: Array<{ kind: SourceKind; cards: number | null; declines: number; coolingDown: boolean }>;
};

export interface RiskDecision {
  record: RiskRecord;
  /** Set when the attempt is refused: a blocked one, or 3-D Secure required of a regular payment. */
  code: RiskCode | null;
}

export interface RiskQuestion {
  workspace: Workspace;
  source: PaymentSource;
  security: 'secure' | 'regular';
  card: CardSource;
  ip: string | null;
  /** The page or link the shopper pays on (a link's, an order's or a subscription's id); none on the API. */
  target: string | null;
  renewal: boolean;
}

export async function judgeAttempt(s: Services, q: RiskQuestion, paymentId: string): Promise<RiskDecision> {
  const typed = 'card' in q.card.providerSource ? q.card.providerSource.card.number : null;
  const source = q.renewal ? 'renewal' : q.source;
  if (typed !== null && !luhnValid(typed)) {
    return refused({ outcome: 'block', source, guarded: false, rules: [{ rule: 'luhn', outcome: 'block', saw: null, threshold: null }], figures: [] }, 'invalid_card_number', s);
  }
  if (q.renewal || !q.workspace.riskGuard) return { record: { outcome: 'allow', source, guarded: false, rules: [], figures: [] }, code: null };
  const card = typed ?? `saved:${'savedCard' in q.card.providerSource ? q.card.providerSource.savedCard.cardReference : ''}`;
  const figures = await countAttempt(s.db, q.workspace, {
    workspaceId: q.workspace.id,
    paymentId,
    fingerprint: cardFingerprint(s.masterKey, q.workspace.id, card),
    at: s.clock.now(),
    sources: guardSources(q.workspace, q.ip, q.target, q.workspace.id),
  });
  const rules = figures.flatMap((f) => firedRules(q.workspace, f));
  const kept = figures.map(({ kind, cards, declines, coolingDown }) => ({ kind, cards: kind === 'workspace' ? null : cards, declines, coolingDown }));
  const outcome: RiskOutcome = rules.some((r) => r.outcome === 'block') ? 'block' : rules.length > 0 ? 'require_3ds' : 'allow';
  const record: RiskRecord = { outcome, source, guarded: true, rules, figures: kept };
  if (outcome === 'block') return refused(record, 'blocked', s);
  // A secure payment meets the requirement by its own 3-D step.
  if (outcome === 'require_3ds' && q.security === 'regular') return refused(record, '3ds_required', s);
  return { record, code: null };
}

function refused(record: RiskRecord, code: RiskCode, s: Services): RiskDecision {
  for (const rule of record.rules) if (rule.outcome === 'block' || code === '3ds_required') s.observe?.riskStopped(rule.rule);
  return { record, code };
}

const THRESHOLDS: Record<SourceKind, { cards: keyof Workspace | null; declines: keyof Workspace }> = {
  ip: { cards: 'riskIpCards', declines: 'riskIpDeclines' },
  target: { cards: null, declines: 'riskTargetDeclines' },
  workspace: { cards: null, declines: 'riskWorkspaceDeclines' },
};

function firedRules(w: Workspace, f: SourceFigures): FiredRule[] {
  const limits = THRESHOLDS[f.kind];
  const rules: FiredRule[] = [];
  if (f.coolingDown) rules.push({ rule: `${f.kind}_cooldown`, outcome: 'block', saw: null, threshold: null });
  if (f.cardsFired && limits.cards) rules.push({ rule: `${f.kind}_cards`, outcome: 'block', saw: f.cards, threshold: w[limits.cards] as number });
  if (f.declinesFired) rules.push({ rule: `${f.kind}_declines`, outcome: 'block', saw: f.declines, threshold: w[limits.declines] as number });
  if (f.threeDsFired && !f.cardsFired) rules.push({ rule: `${f.kind}_cards_3ds`, outcome: 'require_3ds', saw: f.cards, threshold: w.riskIpCardsFor3ds });
  return rules;
}
