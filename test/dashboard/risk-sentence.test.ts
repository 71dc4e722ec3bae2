// The Risk screen's sentence form of a rule and its editor's values: the same fields as the
// gateway's, and a field compared with another (the card's country and the IP's).
import { describe, expect, it } from 'vitest';
import { LABELS } from '../../dashboard/src/i18n.ts';
import { FIELDS, ruleSentence, textFromValue, valueFromText } from '../../dashboard/src/risk/sentence.ts';
import { RULE_FIELDS } from '../../src/domain/risk/rules.ts';

describe('the Risk screen’s rule sentences', () => {
  it('know the gateway’s fields, each with words in both languages', () => {
    expect(FIELDS).toEqual(RULE_FIELDS);
    for (const field of Object.keys(FIELDS)) for (const lang of ['tr', 'en'] as const) expect((LABELS[lang] as unknown as Record<string, string>)[`risk_f_${field}`], `${lang} ${field}`).toBeTruthy();
  });

  it('read the card’s country against the IP’s, and the editor writes and reads that comparison back', () => {
    const conditions = [
      { field: 'card.country', operator: 'ne', value: valueFromText('card.country', 'ne', ' ip.country ') },
      { field: 'amount', operator: 'gt', value: valueFromText('amount', 'gt', '5000') },
    ];
    expect(conditions.map((c) => c.value)).toEqual([{ field: 'ip.country' }, 500000]);
    expect(ruleSentence(LABELS.en, 'en', { outcome: 'block', conditions })).toBe('Block when the card’s country is not the IP’s country and the amount is over 5,000.00');
    expect(ruleSentence(LABELS.tr, 'tr', { outcome: 'block', conditions })).toBe('kartın ülkesi IP’nin ülkesi değil ve tutar 5.000,00 üzerinde ise engelle');
    expect(textFromValue('card.country', { field: 'ip.country' })).toBe('ip.country');
    // Not a comparison: a value for a list, a field of another kind, the field itself.
    expect(valueFromText('card.country', 'in', 'ip.country')).toEqual(['ip.country']);
    expect(valueFromText('card.country', 'eq', 'amount')).toBe('amount');
    expect(valueFromText('card.country', 'eq', 'card.country')).toBe('card.country');
  });
});
