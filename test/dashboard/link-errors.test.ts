// The new-link form's own translations (links/link-errors.ts) and the rate format: a quantity that
// is not a whole number is refused at its field before sending; each offered amount's error moves
// to the amounts box naming the amount, and the top never repeats it.
import { describe, expect, it } from 'vitest';
import { amountsOnOneField, quantityErrors, quantityOf } from '../../dashboard/src/links/link-errors.ts';
import { splitErrors } from '../../dashboard/src/kit/field-errors.ts';
import { formatRate } from '../../dashboard/src/links/format.ts';

describe('new-link form translations', () => {
  it('a quantity box: blank is not given, digits a number, anything else refused at its field', () => {
    expect(['', ' 3 ', '2.5', '-1', 'abc', '1e3'].map(quantityOf)).toEqual([undefined, 3, null, null, null, null]);
    expect(quantityErrors([1, undefined], 'whole')).toBeNull();
    const refused = quantityErrors([1, null], 'whole')!;
    expect(splitErrors(refused, new Set(['items.1.quantity'])).byField.get('items.1.quantity')).toEqual(['whole']);
  });

  it("an offered amount's error sits at the amounts box, naming the amount, and is not repeated at the top", () => {
    const answer = {
      result: { successful: false, message: 'must be > 0' },
      errors: [{ path: ['paymentLink', 'predefinedAmounts', '1'], message: 'must be > 0' }, { path: ['paymentLink', 'reference'], message: 'too long' }],
    };
    const split = splitErrors(amountsOnOneField(answer, 'Amount {n}: {message}'), new Set(['predefinedAmounts', 'reference']));
    expect(split.byField.get('predefinedAmounts')).toEqual(['Amount 2: must be > 0']);
    expect(split.byField.get('reference')).toEqual(['too long']);
    expect(split.general).toEqual([]);
    // Untouched when no amount is named.
    const other = { result: { successful: false, message: 'x' }, errors: [{ path: ['paymentLink', 'predefinedAmounts'], message: 'x' }] };
    expect(amountsOnOneField(other, '{n}')).toBe(other);
  });

  it('a tax rate as a percentage in the reader\'s language', () => {
    expect([formatRate('tr', '20.00'), formatRate('en', '20.00'), formatRate('en', '7.5'), formatRate('tr', null)]).toEqual(['%20', '20%', '7.5%', '—']);
  });
});
