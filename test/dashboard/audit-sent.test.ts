// An audit entry's sent data laid out for people: each value under its path, plain values before
// nested ones, and a one-line preview for the trail's rows.
import { describe, expect, it } from 'vitest';
import { sentLines, sentPreview } from '../../dashboard/src/team/sent.ts';

describe('audit sent data', () => {
  it('lists every value under its path, an object’s plain values first', () => {
    const variables = { input: { items: [{ name: 'Kupa', quantity: 2 }, { name: 'Tabak', tags: [] }], reference: 'L-1', note: null, extra: {} } };
    expect(sentLines(variables)).toEqual([
      { path: 'input.reference', value: 'L-1' },
      { path: 'input.note', value: 'null' },
      { path: 'input.items[0].name', value: 'Kupa' },
      { path: 'input.items[0].quantity', value: '2' },
      { path: 'input.items[1].name', value: 'Tabak' },
      { path: 'input.items[1].tags', value: '[]' },
      { path: 'input.extra', value: '{}' },
    ]);
  });

  it('has no lines for an operation sent without variables', () => {
    expect(sentLines({})).toEqual([]);
    expect(sentLines(null)).toEqual([{ path: '', value: 'null' }]);
  });

  it('previews the first values by their last key, and says when there are more', () => {
    const lines = sentLines({ input: { product: { name: 'Kupa', amount: '25.00' } } });
    expect(sentPreview(lines)).toBe('name: Kupa · amount: 25.00');
    expect(sentPreview(sentLines({ a: 1, b: 2, c: 3, d: 4 }))).toBe('a: 1 · b: 2 · c: 3 …');
  });
});
