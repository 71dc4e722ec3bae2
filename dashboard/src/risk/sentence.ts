// A merchant's rule as the sentence the Risk screen shows ("Block when the amount is at least
// 5,000.00 and the card's scheme is visa"), and the condition editor's text turned back into the
// values the API takes (amounts typed in the currency's units, stored in minor units).
import type { Labels, Lang } from '../i18n.ts';
import { localeOf } from '../kit/money.ts';

/** What a condition may read, and whether it is a number or text (the gateway's rules.ts, RULE_FIELDS). */
export const FIELDS = {
  amount: 'number', currency: 'text', installment_number: 'number', source: 'text', security: 'text',
  'card.bin': 'text', 'card.scheme': 'text', 'card.type': 'text', 'card.issuer_code': 'text', 'card.country': 'text',
  ip: 'text', 'ip.country': 'text', email: 'text', email_domain: 'text', 'ip.cards': 'number', 'ip.declines': 'number',
} as const;
export type RuleField = keyof typeof FIELDS;
export const NUMBER_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in'] as const;
export const TEXT_OPERATORS = ['eq', 'ne', 'in', 'not_in', 'starts_with'] as const;
export type Operator = (typeof NUMBER_OPERATORS)[number] | (typeof TEXT_OPERATORS)[number];
export const OUTCOMES = ['block', 'require_3ds', 'allow'] as const;

export interface Condition { field: string; operator: string; value: unknown }

export const operatorsOf = (field: string): readonly Operator[] => (FIELDS[field as RuleField] === 'number' ? NUMBER_OPERATORS : TEXT_OPERATORS);
const label = (t: Labels, key: string): string => (t as unknown as Record<string, string>)[key] ?? key;

/** A value that names another field of the attempt (`card.country ne ip.country`). */
const fieldRef = (value: unknown): string | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { field?: unknown }).field === 'string' ? (value as { field: string }).field : null;

/** A value as the sentence shows it: amounts from minor units in the reader's digits, lists joined, another field by its label. */
function valueText(t: Labels, lang: Lang, field: string, value: unknown): string {
  const other = fieldRef(value);
  if (other !== null) return label(t, `risk_f_${other}`);
  const one = (v: unknown) => {
    if (field === 'amount' && /^-?\d+$/.test(String(v))) return new Intl.NumberFormat(localeOf(lang), { minimumFractionDigits: 2 }).format(Number(v) / 100);
    return String(v);
  };
  return Array.isArray(value) ? value.map(one).join(', ') : one(value);
}

export function conditionText(t: Labels, lang: Lang, c: Condition): string {
  return label(t, `risk_op_${c.operator}`).replace('{f}', label(t, `risk_f_${c.field}`)).replace('{v}', valueText(t, lang, c.field, c.value));
}

export function ruleSentence(t: Labels, lang: Lang, rule: { outcome: string; conditions: readonly Condition[] }): string {
  const conditions = rule.conditions.map((c) => conditionText(t, lang, c)).join(t.risk_and);
  return t.risk_sentence.replace('{outcome}', label(t, `risk_outcome_${rule.outcome}`)).replace('{conditions}', conditions);
}

/**
 * The editor's text of one condition: what the API takes (a value it cannot read is sent as typed,
 * and refused at its path). For is / is not, the name of another field of the same kind compares
 * the two.
 */
export function valueFromText(field: string, operator: string, text: string): unknown {
  const number = FIELDS[field as RuleField] === 'number';
  const other = text.trim();
  if ((operator === 'eq' || operator === 'ne') && other !== field && FIELDS[other as RuleField] === FIELDS[field as RuleField]) return { field: other };
  const one = (s: string): string | number => {
    const v = s.trim();
    if (!number) return v;
    if (field === 'amount') {
      const m = /^(\d+)(?:[.,](\d{1,2}))?$/.exec(v);
      return m ? Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0')) : v;
    }
    return /^\d+$/.test(v) ? Number(v) : v;
  };
  return operator === 'in' || operator === 'not_in' ? text.split(',').filter((s) => s.trim() !== '').map(one) : one(text);
}

/** A stored value back as the editor's text. */
export function textFromValue(field: string, value: unknown): string {
  const other = fieldRef(value);
  if (other !== null) return other;
  const one = (v: unknown) => (field === 'amount' && /^\d+$/.test(String(v)) ? (Number(v) / 100).toFixed(2) : String(v));
  return Array.isArray(value) ? value.map(one).join(', ') : one(value);
}
