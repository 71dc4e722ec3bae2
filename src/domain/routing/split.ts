// Weighted volume split between routing rules: a run of consecutive rules (by position) that each
// carry a weight is one split group. Among the group's rules that match a card, one is picked by a
// hash of the payment's split key (its id), each with a chance of weight / sum of weights; the
// others follow in their order. The same key always picks the same rule, so a retried payment and
// a test are reproducible, and many keys spread close to the weights.
import { createHash } from 'node:crypto';
import type { RoutingRule } from '../../generated/prisma/client.ts';

/** A point in [0, total) from the key: the first 48 bits of its SHA-256, so the modulo bias is negligible. */
export function splitPoint(key: string, total: number): number {
  const digest = createHash('sha256').update(key).digest();
  return digest.readUIntBE(0, 6) % total;
}

/** The weighted pick among `rules` (all weighted, weight > 0) for this key, first, then the others in order. */
export function pickFirst<T extends { rule: Pick<RoutingRule, 'weight'> }>(rules: readonly T[], key: string): T[] {
  const total = rules.reduce((sum, r) => sum + (r.rule.weight ?? 0), 0);
  if (rules.length < 2 || total <= 0) return [...rules];
  let point = splitPoint(key, total);
  const picked = rules.findIndex((r) => (point -= r.rule.weight ?? 0) < 0);
  return [rules[picked]!, ...rules.filter((_, i) => i !== picked)];
}

/**
 * Rules in the order they are tried for this key: by position, with every split group's matching
 * rules reordered by `pickFirst`. `matches` filters rules; groups are formed before filtering, so a
 * rule that does not match still separates nothing.
 */
export function orderRules<T extends { rule: Pick<RoutingRule, 'weight' | 'position'> }>(rules: readonly T[], matches: (r: T) => boolean, key: string): T[] {
  const sorted = [...rules].sort((a, b) => a.rule.position - b.rule.position);
  const ordered: T[] = [];
  let group: T[] = [];
  const flush = () => {
    ordered.push(...pickFirst(group.filter(matches), key));
    group = [];
  };
  for (const r of sorted) {
    if (r.rule.weight) {
      group.push(r);
      continue;
    }
    flush();
    if (matches(r)) ordered.push(r);
  }
  flush();
  return ordered;
}
