// The one place InterPOS's amounts and currencies meet the gateway's bigint minor units. Requests
// carry major units with a decimal point and no trailing zeros ("100.25", "123.1", "10": PHP's
// string of the amount, as mewebstudio/pos sends PurchAmount and its request vectors show it);
// answers and the 3D callback write them the Turkish way, with a decimal comma and perhaps
// thousands points ("1,01", "1.056,20", "320"), as its InterPosResponseDataMapper::formatAmount
// reads them. Nothing here passes through a float.
import { ISO_NUMERIC_CURRENCY as CURRENCY_CODES } from '../settings-fields.ts';

/** ISO 4217 numeric codes, which InterPOS takes in `Currency`. */
export { CURRENCY_CODES };

/** 10025n -> "100.25", 12310n -> "123.1", 1000n -> "10"; InterPOS never takes a negative or zero amount. */
export function toInterPosAmount(minor: bigint): string {
  if (minor <= 0n) throw new RangeError('InterPOS amounts are positive');
  const cents = (minor % 100n).toString().padStart(2, '0').replace(/0+$/, '');
  return cents === '' ? (minor / 100n).toString() : `${minor / 100n}.${cents}`;
}

const PLAIN = /^(\d+)(?:[.,](\d{1,2}))?$/;
const GROUPED = /^(\d{1,3}(?:\.\d{3})+)(?:,(\d{1,2}))?$/;

/** "1,01" / "1.056,20" / "320" / "100.25" -> minor units; null for anything else. */
export function fromInterPosAmount(value: string | undefined): bigint | null {
  const text = value?.trim() ?? '';
  const match = GROUPED.exec(text) ?? PLAIN.exec(text);
  if (!match) return null;
  return BigInt(match[1]!.replace(/\./g, '')) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
}

/** InterPOS's InstallmentCount: empty for a single payment, else the number of instalments. */
export function installmentCountOf(installmentNumber: number): string {
  return installmentNumber > 1 ? String(installmentNumber) : '';
}
