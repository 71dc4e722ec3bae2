// The one place EST's amounts and currencies meet the gateway's bigint minor units. Requests and
// the 3D callback carry decimals in major units ("100.25"); the ORDERSTATUS inquiry reports the
// order's amount in minor units without a point ("10025"), as mewebstudio/pos reads it
// (EstPosResponseDataMapper::formatAmount). Nothing here passes through a float.
import { formatAmount } from '../../domain/money.ts';
import { ISO_NUMERIC_CURRENCY as CURRENCY_CODES } from '../settings-fields.ts';

/** ISO 4217 numeric codes, which EST takes in `currency` / `Currency`. */
export { CURRENCY_CODES };

/** 10025n -> "100.25"; EST never takes a negative or zero amount. */
export function toEstAmount(minor: bigint): string {
  if (minor <= 0n) throw new RangeError('EST amounts are positive');
  return formatAmount(minor);
}

const DECIMAL = /^(\d+)(?:\.(\d{1,2}))?$/;

/** "100.25" / "100.2" / "100" -> minor units; null for anything else. */
export function fromEstAmount(value: string | undefined): bigint | null {
  const match = value === undefined ? null : DECIMAL.exec(value.trim());
  if (!match) return null;
  return BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
}

/** ORDERSTATUS's ORIG_TRANS_AMT ("101" = 1.01) -> minor units; null when it is not digits. */
export function fromMinorDigits(value: string | undefined): bigint | null {
  return value !== undefined && /^\d+$/.test(value) ? BigInt(value) : null;
}

/** EST's taksit: empty for a single payment, else the number of instalments. */
export function taksitOf(installmentNumber: number): string {
  return installmentNumber > 1 ? String(installmentNumber) : '';
}
