// The dashboard kit's pure parts: a label in both languages for every value of every enum of
// schema.graphql and every account capability, badge colours at AA contrast, money through Intl
// without floating point, dates in a given zone, and which field an API error belongs to.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, GraphQLEnumType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/gateway-process.ts';
import { CAPABILITIES } from '../../src/domain/settings.ts';
import { SCHEMA_ENUM_KIND, statusOf, statusValues, type StatusKind } from '../../dashboard/src/kit/status.ts';
import { formatMoney } from '../../dashboard/src/kit/money.ts';
import { dates } from '../../dashboard/src/kit/dates.ts';
import { fieldOf, splitErrors } from '../../dashboard/src/kit/field-errors.ts';

const schema = buildSchema(readFileSync(path.join(ROOT, 'schema.graphql'), 'utf8'));
const enums = Object.values(schema.getTypeMap()).filter((t): t is GraphQLEnumType => t instanceof GraphQLEnumType && !t.name.startsWith('__'));

function expectLabelled(kind: StatusKind, value: string) {
  const tr = statusOf(kind, value, 'tr');
  const en = statusOf(kind, value, 'en');
  expect(tr.known, `${kind}.${value} has no label`).toBe(true);
  expect(tr.label.trim()).not.toBe('');
  expect(en.label.trim()).not.toBe('');
}

describe('status labels', () => {
  it('every enum of schema.graphql has a kind, and every value of it a Turkish and an English label', () => {
    expect(enums.length).toBeGreaterThan(5);
    for (const e of enums) {
      const kind = SCHEMA_ENUM_KIND[e.name];
      expect(kind, `enum ${e.name} has no status kind in kit/status.ts`).toBeDefined();
      for (const v of e.getValues()) expectLabelled(kind!, v.name);
    }
  });

  it('every account capability has a label', () => {
    for (const c of CAPABILITIES) expectLabelled('capability', c);
    expect(statusValues('capability').sort()).toEqual([...CAPABILITIES].sort());
  });

  it('an unknown value shows as itself, neutral', () => {
    expect(statusOf('payment', 'brand_new', 'en')).toEqual({ tone: 'neutral', label: 'brand_new', known: false });
    expect(statusOf('payment', 'successful', 'tr')).toEqual({ tone: 'success', label: 'Başarılı', known: true });
  });

  it('every badge tone reads at AA contrast (4.5:1) and on white too', () => {
    const css = readFileSync(path.join(ROOT, 'dashboard/src/style.css'), 'utf8');
    const tones = [...css.matchAll(/\.badge\.tone-(\w+) \{ background: (#[0-9a-f]{6}); color: (#[0-9a-f]{6}); \}/g)];
    expect(tones.map((m) => m[1]).sort()).toEqual(['danger', 'info', 'neutral', 'success', 'warning']);
    for (const [, tone, bg, fg] of tones) {
      expect(contrast(bg!, fg!), `${tone} on its tint`).toBeGreaterThanOrEqual(4.5);
      expect(contrast('#ffffff', fg!), `${tone} on white`).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('money and dates through Intl', () => {
  it('formats decimal strings exactly, big amounts included', () => {
    const sp = (s: string) => s.replace(/\s/g, ' ');
    expect(sp(formatMoney('tr', '12345678901234.56', 'TRY'))).toBe('₺12.345.678.901.234,56');
    expect(sp(formatMoney('en', '12345678901234.56', 'TRY'))).toBe('TRY 12,345,678,901,234.56');
    // Beyond 2^53 a Number would print ...992.00: the string keeps every digit.
    expect(sp(formatMoney('en', '9007199254740993.01', 'USD'))).toBe('US$9,007,199,254,740,993.01');
    expect(sp(formatMoney('tr', '100.5', 'EUR'))).toBe('€100,50');
    expect(formatMoney('en', null, 'TRY')).toBe('—');
  });

  it('dates in the given zone, with the zone named', () => {
    const d = dates('en', 'Times in {zone}.', 'Europe/Istanbul');
    expect(d.dateTime('2026-03-04T21:30:00Z')).toBe('05/03/2026, 00:30:00');
    expect(d.date('2026-03-04T21:30:00Z')).toBe('5 Mar 2026');
    expect(d.day('2026-03-04')).toBe('4 Mar 2026');
    expect(d.zoneNote).toBe('Times in Europe/Istanbul.');
    const tr = dates('tr', 'Saatler {zone} saat diliminde.', 'UTC');
    expect(tr.dateTime('2026-03-04T21:30:00Z')).toBe('4.03.2026 21:30:00');
    expect(tr.dateTime(null)).toBe('—');
  });

  it('falls back to UTC for a zone Intl refuses (a browser on a misconfigured machine reports Etc/Unknown)', () => {
    const d = dates('en', 'Times in {zone}.', 'Etc/Unknown');
    expect(d.zone).toBe('UTC');
    expect(d.dateTime('2026-03-04T21:30:00Z')).toBe('04/03/2026, 21:30:00');
    expect(d.zoneNote).toBe('Times in UTC.');
  });
});

describe('field errors', () => {
  const fields = new Set(['items.0.name', 'reference', 'amount']);

  it('strips the input object prefix and keeps whole paths', () => {
    expect(fieldOf(['paymentLink', 'items', '0', 'name'], fields)).toBe('items.0.name');
    expect(fieldOf(['reference'], fields)).toBe('reference');
    expect(fieldOf(['paymentLink', 'items', '1', 'name'], fields)).toBeUndefined();
    expect(fieldOf([], fields)).toBeUndefined();
    // Only the first segment is a prefix: a deeper match is not taken for a field.
    expect(fieldOf(['x', 'y', 'reference'], fields)).toBeUndefined();
  });

  it('each message once: at its field, else at the top, and the result message not repeated', () => {
    const split = splitErrors(
      {
        result: { successful: false, message: 'Name required' },
        errors: [
          { path: ['paymentLink', 'items', '0', 'name'], message: 'Name required' },
          { path: ['paymentLink', 'items', '0', 'name'], message: 'Name required' },
          { path: ['paymentLink', 'currency'], message: 'Unknown currency' },
          { path: [], message: 'Plan has no links' },
          { path: ['paymentLink', 'other'], message: 'Plan has no links' },
        ],
      },
      fields,
    );
    expect([...split.byField]).toEqual([['items.0.name', ['Name required']]]);
    expect(split.general).toEqual(['Unknown currency', 'Plan has no links']);
    expect(split.failed).toBe(true);
  });

  it('a failure without errors shows its message; a success shows nothing', () => {
    expect(splitErrors({ result: { successful: false, message: 'Token not valid' } }, fields).general).toEqual(['Token not valid']);
    expect(splitErrors({ result: { successful: true }, errors: [] }, fields)).toEqual({ byField: new Map(), general: [], failed: false });
  });
});

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}
