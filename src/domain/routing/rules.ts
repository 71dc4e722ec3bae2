// Whether a routing rule matches a payment's card, currency and amount.
import type { RoutingRule } from '../../generated/prisma/client.ts';
import type { BinInfo } from '../../providers/types.ts';
import type { Currency } from '../money.ts';

export interface CardFacts {
  bin: BinInfo | null;
  currency: Currency;
  amount: bigint;
}

const sameProgram = (a: string, b: string) => a.localeCompare(b, 'tr', { sensitivity: 'base' }) === 0;

/** A rule matches when every condition it sets holds; unset conditions match anything. */
export function ruleMatches(rule: RoutingRule, card: CardFacts): boolean {
  const bin = card.bin;
  if (rule.scheme && rule.scheme !== bin?.scheme) return false;
  if (rule.cardType && rule.cardType !== bin?.type) return false;
  if (rule.issuerCode && rule.issuerCode !== bin?.issuerCode) return false;
  if (rule.binPrefix && !(bin?.bin ?? '').startsWith(rule.binPrefix)) return false;
  if (rule.program && !(bin?.program && sameProgram(rule.program, bin.program))) return false;
  if (rule.currency && rule.currency !== card.currency) return false;
  if (rule.minAmount !== null && card.amount < rule.minAmount) return false;
  if (rule.maxAmount !== null && card.amount > rule.maxAmount) return false;
  return true;
}
