import { describe, it, expect } from 'vitest';
import {
  CURRENCIES,
  MAX_LINK_AMOUNT,
  displayMoney,
  displayPercent,
  divideHalfUp,
  formatAmount,
  formatRate,
  isCurrency,
  parseAmount,
  parseRate,
  percentOf,
} from '../../src/domain/money.ts';

describe('currencies', () => {
  it('lists exactly the contract currencies', () => {
    expect([...CURRENCIES]).toEqual(['TRY', 'USD', 'EUR', 'GBP']);
  });

  it('isCurrency accepts contract codes only, case-sensitively', () => {
    for (const c of CURRENCIES) expect(isCurrency(c)).toBe(true);
    for (const x of ['try', 'JPY', '', 'TRY ', null, undefined, 1, {}]) expect(isCurrency(x)).toBe(false);
  });
});

describe('parseAmount', () => {
  it.each([
    ['100', 10000n],
    ['100.1', 10010n],
    ['100.10', 10010n],
    ['0.05', 5n],
    ['0', 0n],
    ['007.5', 750n],
    ['10000000.00', MAX_LINK_AMOUNT],
    // Larger than 2^53 minor units: exact because no float is involved.
    ['123456789012345678.99', 12345678901234567899n],
  ])('accepts string %j', (input, expected) => {
    expect(parseAmount(input)).toBe(expected);
  });

  it.each(['', '-5', '-0.01', '1,00', '.5', '5.', ' 5', '5 ', '5\n', '+5', '1.234', '1e3', 'abc', '١٢', '0x10', '1.2.3', 'NaN'])(
    'rejects string %j',
    (input) => {
      expect(parseAmount(input)).toBeNull();
    },
  );

  it.each([
    [12.5, 1250n],
    [100, 10000n],
    [0.1, 10n],
    [0, 0n],
  ])('accepts number %s whose canonical form matches', (input, expected) => {
    expect(parseAmount(input)).toBe(expected);
  });

  // A float that is not already a two-decimal literal would need rounding; refuse rather than guess.
  it.each([12.345, 1e21, 0.1 + 0.2, 1e-7, -5, NaN, Infinity, -Infinity])('rejects number %s', (input) => {
    expect(parseAmount(input)).toBeNull();
  });

  it.each<unknown>([null, undefined, true, 10n, {}, ['5'], { valueOf: () => 5 }])('rejects non-string non-number %s', (input) => {
    expect(parseAmount(input)).toBeNull();
  });
});

describe('formatAmount', () => {
  it.each([
    [10050n, '100.50'],
    [5n, '0.05'],
    [0n, '0.00'],
    [100n, '1.00'],
    [MAX_LINK_AMOUNT, '10000000.00'],
    [-10050n, '-100.50'],
    [-5n, '-0.05'],
  ])('formats %s as %s', (minor, expected) => {
    expect(formatAmount(minor)).toBe(expected);
  });

  it('round-trips with parseAmount', () => {
    for (const s of ['0.01', '1.00', '99.99', '10000000.00']) expect(formatAmount(parseAmount(s)!)).toBe(s);
  });
});

describe('parseRate / formatRate', () => {
  it.each([
    [18, 1800n],
    [18.5, 1850n],
    ['18.5', 1850n],
    ['18.05', 1805n],
    [100, 10000n],
    ['100.00', 10000n],
    [0, 0n],
    ['0', 0n],
  ])('parses %j', (input, expected) => {
    expect(parseRate(input)).toBe(expected);
  });

  it.each<unknown>([100.01, '100.01', '101', -1, '-1', '18.555', 18.555, '', ' 18', '18,5', null, undefined])('rejects %j', (input) => {
    expect(parseRate(input)).toBeNull();
  });

  it('formats hundredths with two decimals', () => {
    expect(formatRate(1800n)).toBe('18.00');
    expect(formatRate(1850n)).toBe('18.50');
    expect(formatRate(5n)).toBe('0.05');
    expect(formatRate(10000n)).toBe('100.00');
  });
});

describe('divideHalfUp', () => {
  it.each([
    [10n, 4n, 3n], // 2.5 -> 3
    [9n, 4n, 2n], // 2.25 -> 2
    [11n, 4n, 3n], // 2.75 -> 3
    [8n, 4n, 2n],
    [0n, 7n, 0n],
    [1n, 3n, 0n],
    [2n, 3n, 1n],
    [-10n, 4n, -3n], // half away from zero, mirror of the positive case
    [10n, -4n, -3n],
    [-9n, -4n, 2n],
  ])('%s / %s = %s', (a, b, expected) => {
    expect(divideHalfUp(a, b)).toBe(expected);
  });

  it('throws on division by zero', () => {
    expect(() => divideHalfUp(1n, 0n)).toThrow(RangeError);
  });
});

describe('percentOf', () => {
  it('takes basis points of an amount', () => {
    expect(percentOf(10000n, 1800n)).toBe(1800n); // 18 % of 100.00
    expect(percentOf(10000n, 10000n)).toBe(10000n);
    expect(percentOf(10000n, 0n)).toBe(0n);
  });

  it('rounds half up', () => {
    expect(percentOf(250n, 100n)).toBe(3n); // 1 % of 2.50 = 0.025 -> 0.03
    expect(percentOf(249n, 100n)).toBe(2n); // 0.0249 -> 0.02
    expect(percentOf(333n, 1850n)).toBe(62n); // 61.605 -> 62
  });
});

describe('displayMoney (what shoppers read on the hosted pages)', () => {
  it.each([
    [123450n, 'TRY', '1.234,50 TRY', '1,234.50 TRY'],
    [0n, 'TRY', '0,00 TRY', '0.00 TRY'],
    [5n, 'EUR', '0,05 EUR', '0.05 EUR'],
    [99999n, 'USD', '999,99 USD', '999.99 USD'],
    [100000n, 'GBP', '1.000,00 GBP', '1,000.00 GBP'],
    [123456789n, 'TRY', '1.234.567,89 TRY', '1,234,567.89 TRY'],
    [-123450n, 'TRY', '-1.234,50 TRY', '-1,234.50 TRY'],
    // Beyond 2^53 minor units: exact because no float is involved.
    [12345678901234567899n, 'TRY', '123.456.789.012.345.678,99 TRY', '123,456,789,012,345,678.99 TRY'],
  ])('%s %s -> tr %j, en %j', (minor, currency, tr, en) => {
    expect(displayMoney(minor, currency, 'tr')).toBe(tr);
    expect(displayMoney(minor, currency, 'en')).toBe(en);
  });
});

describe('displayPercent', () => {
  it.each([
    [1800n, '%18', '18%'],
    [850n, '%8,5', '8.5%'],
    [805n, '%8,05', '8.05%'],
    [100, '%1', '1%'],
    [0, '%0', '0%'],
    [10_000n, '%100', '100%'],
    [1010, '%10,1', '10.1%'],
  ])('%s -> tr %j, en %j', (hundredths, tr, en) => {
    expect(displayPercent(hundredths, 'tr')).toBe(tr);
    expect(displayPercent(hundredths, 'en')).toBe(en);
  });

  it('refuses a fractional number instead of rounding it', () => {
    expect(() => displayPercent(18.5, 'tr')).toThrow(RangeError);
  });
});
