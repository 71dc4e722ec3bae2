import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromIyzicoPrice, toIyzicoPrice } from '../../../src/providers/iyzico/amount.ts';

const require = createRequire(import.meta.url);
// iyzico's own client formats prices with this before it sends them.
const iyzipayUtils = require('iyzipay/lib/utils.js') as { formatPrice: (price: string) => string };

// Up to 99,999,999,999.99: the gateway's MAX_AMOUNT, and still exact for iyzipay's parseFloat.
const minor = fc.bigInt({ min: 0n, max: 9_999_999_999_999n });

describe('iyzico amounts', () => {
  it('writes prices the way iyzico writes them', () => {
    expect(toIyzicoPrice(100n)).toBe('1.0');
    expect(toIyzicoPrice(1050n)).toBe('10.5');
    expect(toIyzicoPrice(1025n)).toBe('10.25');
    expect(toIyzicoPrice(0n)).toBe('0.0');
    expect(toIyzicoPrice(7n)).toBe('0.07');
    expect(() => toIyzicoPrice(-1n)).toThrow(RangeError);
  });

  it('matches iyzipay formatPrice for any amount', () => {
    fc.assert(
      fc.property(minor, (m) => {
        const plain = `${m / 100n}.${(m % 100n).toString().padStart(2, '0')}`;
        expect(toIyzicoPrice(m)).toBe(iyzipayUtils.formatPrice(plain));
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips every amount', () => {
    fc.assert(fc.property(minor, (m) => fromIyzicoPrice(toIyzicoPrice(m)) === m), { numRuns: 2000 });
  });

  it('reads answers with any number of trailing zeros, and integers', () => {
    fc.assert(
      fc.property(minor, fc.nat({ max: 6 }), (m, zeros) => {
        const text = `${m / 100n}.${(m % 100n).toString().padStart(2, '0')}${'0'.repeat(zeros)}`;
        return fromIyzicoPrice(text) === m;
      }),
    );
    expect(fromIyzicoPrice(100)).toBe(10000n);
    expect(fromIyzicoPrice('100')).toBe(10000n);
  });

  it('refuses what is not an exact amount in cents', () => {
    for (const bad of ['1.005', '-1.0', '1e3', '', '.5', '1.', ' 1.0', 1.5, -1, Number.MAX_SAFE_INTEGER + 2, null, undefined, {}]) {
      expect(fromIyzicoPrice(bad)).toBeNull();
    }
  });
});
