// The one place iyzico's amounts meet the gateway's bigint minor units. iyzico reads and writes
// prices as decimals in major units: requests carry strings such as "1.0", "10.5", "10.25" (the
// official clients' form: no trailing zeros, at least one decimal), and answers carry JSON numbers
// such as 100.0. The client keeps every fractional JSON number as its source text (see client.ts),
// so nothing here ever passes through a float. All four currencies the gateway handles have two
// decimals (CURRENCY_EXPONENT in src/domain/money.ts).
import { formatAmount } from '../../domain/money.ts';

/** 100n -> "1.0", 1050n -> "10.5", 1025n -> "10.25"; negative amounts never go to iyzico. */
export function toIyzicoPrice(minor: bigint): string {
  if (minor < 0n) throw new RangeError('iyzico prices are never negative');
  const [whole, cents] = formatAmount(minor).split('.') as [string, string];
  const fraction = cents.replace(/0+$/, '');
  return `${whole}.${fraction === '' ? '0' : fraction}`;
}

// Digits, an optional fraction of any length: "1", "1.0", "10.50", "10.500" are all answers iyzico
// may give; a fraction is accepted when its digits past the second are zeros.
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * An amount from an iyzico answer (a decimal string, or a JSON integer) -> minor units; null when
 * it is not a non-negative decimal or has a non-zero digit beyond the cents.
 */
export function fromIyzicoPrice(value: unknown): bigint | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) * 100n : null;
  if (typeof value !== 'string') return null;
  const match = DECIMAL.exec(value);
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (/[^0]/.test(fraction.slice(2))) return null;
  return BigInt(match[1]!) * 100n + BigInt(fraction.slice(0, 2).padEnd(2, '0'));
}
