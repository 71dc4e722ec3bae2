// Currency conversion: an account with `conversion` on that does not take the
// payment's currency charges in its own first currency at a rate from the rate source.
import type { Currency } from './money.ts';
import { divideHalfUp } from './money.ts';

/** Rates as exact decimals: `scaled` / 10^6 units of `to` per unit of `from`. */
export interface Rate {
  from: Currency;
  to: Currency;
  text: string;
  scaled: bigint;
}

export interface RateSource {
  rate(from: Currency, to: Currency): Rate | null;
}

const SCALE = 1_000_000n;

/** Parses "USD:TRY=32.50,EUR:TRY=35.10" into a static rate source. */
export function staticRates(spec: string): RateSource {
  const table = new Map<string, Rate>();
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([A-Z]{3}):([A-Z]{3})=(\d+)(?:\.(\d{1,6}))?$/.exec(part);
    if (!m) throw new Error(`Invalid conversion rate "${part}"`);
    const [, from, to, whole, frac = ''] = m;
    const scaled = BigInt(whole) * SCALE + BigInt(frac.padEnd(6, '0'));
    table.set(`${from}:${to}`, { from: from as Currency, to: to as Currency, text: `${whole}${frac ? '.' + frac : ''}`, scaled });
  }
  return { rate: (from, to) => table.get(`${from}:${to}`) ?? null };
}

export function convert(amount: bigint, rate: Rate): bigint {
  return divideHalfUp(amount * rate.scaled, SCALE);
}
