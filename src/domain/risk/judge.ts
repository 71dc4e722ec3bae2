// The risk decision of a payment attempt, taken before a bank is asked (payments/attempt.ts):
// allow, block, or require 3-D Secure. A number that fails the Luhn check is refused without a
// statement; every other attempt a shopper makes is counted by the card-testing guard (guard.ts),
// in the statement that writes the payment's row or in one of its own before the account is
// chosen (and one more when that attempt starts a source's block: its event, sources.ts), unless
// the process's memory of earlier counts still holds its figures (a quiet source's repeated card,
// the workspace's own figures: memory.ts). The merchant's rules come from the process's memory (rules.ts, liveRules),
// read again only after they change; the lists are read only when the workspace has entries.
// Renewals the merchant scheduled are judged as their own source and are not counted: no shopper
// is there to test cards. The decision, the rules that fired and the figures they saw are kept on
// the payment (`risk`). What each outcome does to the payment:
// docs/decisions.md, "Risk decisions".
import type { Services } from '../services.ts';
import type { PaymentSource } from '../payments/owners.ts';
import type { CardSource } from '../payments/card-source.ts';
import type { Workspace } from '../../generated/prisma/client.ts';
import { passesCardCheck } from '../cards.ts';
import { cardFingerprint } from './fingerprint.ts';
import { guardSources, type Counted, type GuardAttempt, type SourceFigures, type SourceKind } from './guard.ts';
import type { FiredRule, RiskCode, RiskOutcome, RiskRecord } from './types.ts';
import { startBlocks } from './sources.ts';
import { ipCountry } from './ip-country.ts';
import { issuerCountry } from '../bin-source.ts';
import { listMatches, type ListedFacts, type ListMatch } from './lists.ts';
import { firstMatching, liveRules, type AttemptFacts, type RuleRow } from './rules.ts';

export type { FiredRule, RiskCode, RiskOutcome, RiskRecord } from './types.ts';
export { STOPPED_CODES } from './types.ts';

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
  /** The shopper's e-mail address, when the owner knows it (for the lists and rules). */
  email: string | null;
  /** What the merchant's rules may read besides. */
  amount: bigint;
  currency: string;
  installmentNumber: number;
}

/**
 * A decision either taken without counting (a number failing the Luhn check, a renewal, a
 * workspace without the guard), or waiting for the guard's count: `attempt` is what to count, and
 * `finish` takes the decision from the count. The count runs in a statement of its own
 * (guard.ts, countAttempt) or in the payment row's (countAttemptWith; payments/attempt.ts).
 */
export type Judgement = { decided: RiskDecision } | { attempt: GuardAttempt; finish(counted: Counted): Promise<RiskDecision> };

export async function startJudgement(s: Services, q: RiskQuestion, paymentId: string): Promise<Judgement> {
  const typed = 'card' in q.card.providerSource ? q.card.providerSource.card.number : null;
  const source = q.renewal ? 'renewal' : q.source;
  if (typed !== null && !passesCardCheck(typed, q.workspace.mode)) {
    return { decided: refused({ outcome: 'block', source, guarded: false, rules: [{ rule: 'luhn', outcome: 'block', saw: null, threshold: null }], figures: [] }, 'invalid_card_number', s) };
  }
  const card = typed ?? `saved:${'savedCard' in q.card.providerSource ? q.card.providerSource.savedCard.cardReference : ''}`;
  const fingerprint = cardFingerprint(s.masterKey, q.workspace.id, card);
  const country = ipCountry(q.ip);
  const cardCountry = issuerCountry(q.card.bin);
  const unjudged: RiskRecord = { outcome: 'allow', source, guarded: false, rules: [], fingerprint, ...(country ? { ipCountry: country } : {}), ...(cardCountry ? { cardCountry } : {}), figures: [] };
  if (q.renewal) return { decided: { record: unjudged, code: null } };
  const listed: ListedFacts | null = q.workspace.riskListSize > 0 ? { digits: typed, fingerprint, ip: q.ip, email: q.email, country: country ?? null } : null;
  const merchantRules = await liveRules(s.db, q.workspace);
  if (!q.workspace.riskGuard) {
    if (!listed && merchantRules.length === 0) return { decided: { record: unjudged, code: null } };
    const matches = listed ? await listMatches(s.db, q.workspace.id, listed) : [];
    return { decided: decide(s, q, { ...unjudged, rules: [...listRules(matches), ...ruleFired(merchantRules, factsOf(q, null))] }) };
  }
  const at = s.clock.now();
  const attempt: GuardAttempt = { workspaceId: q.workspace.id, paymentId, fingerprint, at, sources: guardSources(q.workspace, q.ip, q.target, q.workspace.id), listed };
  const judged = async (counted: Counted) => {
    await startBlocks(s, { workspaceId: q.workspace.id, cooldownSeconds: q.workspace.riskCooldownSeconds, ip: q.ip, target: q.target, paymentId, at }, counted.figures);
    const ip = counted.figures.find((f) => f.kind === 'ip') ?? null;
    const rules = [...listRules(counted.listed), ...ruleFired(merchantRules, factsOf(q, ip)), ...counted.figures.flatMap((f) => firedRules(q.workspace, f))];
    const kept = counted.figures.map(({ kind, cards, declines, coolingDown, countAgeMs }) => ({ kind, cards: kind === 'workspace' ? null : cards, declines, coolingDown, ...(countAgeMs === undefined ? {} : { countAgeMs }) }));
    return decide(s, q, { ...unjudged, guarded: true, rules, figures: kept });
  };
  // A quiet source's repeated card: the figures its last count saw still hold (memory.ts).
  const recalled = s.riskMemory?.recall(attempt, at.getTime());
  if (recalled) return { decided: await judged(recalled) };
  // Otherwise the workspace's own figures may still come from memory: the count reads the others.
  const own = attempt.sources.length > 1 ? s.riskMemory?.recallWorkspace(attempt, at.getTime()) : undefined;
  const generation = s.riskMemory?.generation() ?? 0;
  return {
    attempt: own ? { ...attempt, sources: attempt.sources.filter((source) => source.kind !== 'workspace') } : attempt,
    async finish(counted) {
      // Only what this count read is remembered (a recalled figure keeps the age of its own count).
      s.riskMemory?.remember(attempt, counted, generation, at.getTime());
      return judged(own ? { ...counted, figures: [...counted.figures, own] } : counted);
    },
  };
}

/** The outcome of the rules that fired: an allow list entry wins, then any block, then 3-D Secure. */
function decide(s: Services, q: RiskQuestion, judged: RiskRecord): RiskDecision {
  const rules = judged.rules;
  const outcome: RiskOutcome = rules.some((r) => r.outcome === 'allow') ? 'allow' : rules.some((r) => r.outcome === 'block') ? 'block' : rules.length > 0 ? 'require_3ds' : 'allow';
  const record: RiskRecord = { ...judged, outcome };
  if (outcome === 'block') return refused(record, 'blocked', s);
  // A secure payment meets the requirement by its own 3-D step.
  if (outcome === 'require_3ds' && q.security === 'regular') return refused(record, '3ds_required', s);
  return { record, code: null };
}

function refused(record: RiskRecord, code: RiskCode, s: Services): RiskDecision {
  for (const rule of record.rules) if (rule.outcome === (code === '3ds_required' ? 'require_3ds' : 'block')) s.observe?.riskStopped(rule.rule.startsWith('rule:') ? 'merchant_rule' : rule.rule);
  return { record, code };
}

/** One rule per list and kind matched (several entries of one kind read as one). */
function listRules(matches: ListMatch[]): FiredRule[] {
  const names = [...new Set(matches.map((m) => `${m.list}_list_${m.kind}`))].sort();
  return names.map((rule) => ({ rule, outcome: rule.startsWith('allow') ? 'allow' : 'block', saw: null, threshold: null }));
}

/** The merchant's first matching rule, as `rule:<name>`. */
function ruleFired(rules: RuleRow[], facts: AttemptFacts): FiredRule[] {
  const rule = firstMatching(rules, facts);
  return rule ? [{ rule: `rule:${rule.name}`, outcome: rule.outcome, saw: null, threshold: null }] : [];
}

/** What the merchant's rules read of the attempt (rules.ts, RULE_FIELDS). */
function factsOf(q: RiskQuestion, ip: SourceFigures | null): AttemptFacts {
  const typed = 'card' in q.card.providerSource ? q.card.providerSource.card.number : null;
  const email = q.email?.toLowerCase() ?? null;
  return {
    amount: Number(q.amount),
    currency: q.currency,
    installment_number: q.installmentNumber,
    source: q.renewal ? 'renewal' : q.source,
    security: q.security,
    'card.bin': typed?.slice(0, 8) ?? q.card.bin?.bin ?? null,
    'card.scheme': q.card.bin?.scheme ?? null,
    'card.type': q.card.bin?.type ?? null,
    'card.issuer_code': q.card.bin?.issuerCode ?? null,
    'card.country': issuerCountry(q.card.bin),
    ip: q.ip,
    'ip.country': ipCountry(q.ip),
    email,
    email_domain: email?.split('@')[1] ?? null,
    'ip.cards': ip?.cards ?? null,
    'ip.declines': ip?.declines ?? null,
  };
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
