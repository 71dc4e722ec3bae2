// The one module that turns amount strings into minor units and back.
// Money is a bigint of minor units everywhere inside the service; decimal strings exist only at
// the REST and checkout edges, where shoppers read them in their own notation (displayMoney).
// Nothing here ever goes through a float: a float cannot hold 0.10 exactly, and a rounding slip
// in a refund total is real money.

import type { Language } from './messages.ts';

export const CURRENCIES = ['TRY', 'USD', 'EUR', 'GBP'] as const;
export type Currency = (typeof CURRENCIES)[number];

export function isCurrency(x: unknown): x is Currency {
  return typeof x === 'string' && (CURRENCIES as readonly string[]).includes(x);
}

// Decimal places of each currency's minor unit. Every currency the contract allows has two, which is
// why parseAmount/formatAmount take no currency; adding e.g. JPY (0) or KWD (3) means revisiting them.
export const CURRENCY_EXPONENT: Readonly<Record<Currency, number>> = Object.freeze({
  TRY: 2,
  USD: 2,
  EUR: 2,
  GBP: 2,
});

/** 10000000.00, the contract's ceiling for link totals, predefined and custom link amounts. */
export const MAX_LINK_AMOUNT = 1_000_000_000n;

// docs/api-contract.md, convention 5: digits, optional point with one or two decimals. `\d` without the `u`
// flag is ASCII only and `$` without `m` does not match before a trailing newline.
const DECIMAL_2 = /^(\d+)(?:\.(\d{1,2}))?$/;

// JSON clients send numbers too. A number is accepted only when its canonical JS string already
// has the contract's form, so 12.5 is fine but 12.345, 1e21 or 0.1 + 0.2 are refused rather than rounded.
function toDecimalString(input: unknown): string | null {
  if (typeof input === 'string') return input;
  if (typeof input === 'number' && Number.isFinite(input)) return String(input);
  return null;
}

/** Parses the contract's `<decimal>` form into hundredths; null when the text is not exactly that form. */
function parseHundredths(input: unknown): bigint | null {
  const text = toDecimalString(input);
  if (text === null) return null;
  const match = DECIMAL_2.exec(text);
  if (!match) return null;
  const fraction = (match[2] ?? '').padEnd(2, '0');
  return BigInt(match[1]) * 100n + BigInt(fraction);
}

/** `"100.10"` or `100.1` -> `10010n`; anything outside the contract's amount form -> null. Range checks belong to callers. */
export function parseAmount(input: unknown): bigint | null {
  return parseHundredths(input);
}

function formatHundredths(value: bigint): string {
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  const whole = abs / 100n;
  const cents = (abs % 100n).toString().padStart(2, '0');
  return `${sign}${whole}.${cents}`;
}

/** `10050n` -> `"100.50"`; responses always carry two decimals. */
export function formatAmount(minor: bigint): string {
  return formatHundredths(minor);
}

const MAX_RATE = 10_000n; // 100.00 %

/** Tax rate 0-100 with at most two decimals -> hundredths of a percent (= basis points): 18.5 -> 1850n. */
export function parseRate(input: unknown): bigint | null {
  const value = parseHundredths(input);
  if (value === null || value > MAX_RATE) return null;
  return value;
}

/** `1800n` -> `"18.00"`. */
export function formatRate(hundredths: bigint): string {
  return formatHundredths(hundredths);
}

/**
 * a / b rounded half away from zero ("half-up" as cashiers mean it, so -0.5 -> -1 and the
 * result of a negative amount mirrors the positive one). Throws on b = 0.
 */
export function divideHalfUp(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new RangeError('divideHalfUp: division by zero');
  const negative = a < 0n !== b < 0n;
  const absA = a < 0n ? -a : a;
  const absB = b < 0n ? -b : b;
  const quotient = (absA * 2n + absB) / (absB * 2n);
  return negative ? -quotient : quotient;
}

/** amount * basisPoints / 10000, half-up: percentOf(10000n, 1800n) is 18 % of 100.00 = 1800n. */
export function percentOf(amount: bigint, basisPoints: bigint): bigint {
  return divideHalfUp(amount * basisPoints, 10_000n);
}

// How shoppers read numbers: Turkish groups thousands with "." and writes decimals after ",",
// with the percent sign in front ("%18"); English the other way round ("18%").
const NOTATION: Readonly<Record<Language, { group: string; decimal: string; percent: (n: string) => string }>> = Object.freeze({
  tr: { group: '.', decimal: ',', percent: (n: string) => `%${n}` },
  en: { group: ',', decimal: '.', percent: (n: string) => `${n}%` },
});

/** "1234.50" -> "1.234,50" (tr) or "1,234.50" (en); the sign stays in front. */
function localizeDecimal(plain: string, lang: Language): string {
  const { group, decimal } = NOTATION[lang];
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(plain)!;
  const whole = match[2]!.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${match[1]}${whole}${match[3] === undefined ? '' : `${decimal}${match[3]}`}`;
}

/** An amount as a shopper reads it: `123450n, 'TRY'` -> "1.234,50 TRY" (tr) or "1,234.50 TRY" (en). */
export function displayMoney(minor: bigint, currency: Currency | string, lang: Language): string {
  return `${localizeDecimal(formatAmount(minor), lang)} ${currency}`;
}

/** A rate in hundredths of a percent without trailing zeros: 1800 -> "%18" / "18%", 850 -> "%8,5" / "8.5%". */
export function displayPercent(hundredths: bigint | number, lang: Language): string {
  // BigInt() refuses a fractional number, so a rate never goes through float arithmetic here.
  const [whole, fraction] = formatRate(BigInt(hundredths)).split('.') as [string, string];
  const digits = fraction.replace(/0+$/, '');
  const plain = digits ? `${whole}.${digits}` : whole;
  return NOTATION[lang].percent(localizeDecimal(plain, lang));
}
