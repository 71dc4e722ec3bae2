// The merchant's terminal as the emulated InterPOS knows it, and what it accepts.
export interface InterPosCredentials {
  shopCode: string;
  /** The API user and its password, sent as they are on every API call. */
  userCode: string;
  userPassword: string;
  /** The 3D store key ("MerchantPass"): signs the gate form and the callback. */
  storeKey: string;
}

// mewebstudio/pos's test account (tests/Unit/Crypt/InterPosCryptTest.php), so its vectors apply as they are.
export const DEFAULT_INTERPOS_CREDENTIALS: InterPosCredentials = {
  shopCode: '3123',
  userCode: 'InterTestApi',
  userPassword: '3',
  storeKey: 'gDg1N',
};

/** ISO 4217 numeric codes InterPOS takes. */
export const CURRENCIES = new Set(['949', '840', '978', '826']);

/** A request's amount ("100.25", "100") -> minor units; null unless positive with at most two decimals. */
export function minorOf(value: string): number | null {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) return null;
  const minor = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return minor > 0 ? minor : null;
}

/** Minor units as InterPOS writes them in answers and callbacks: a decimal comma ("1,01", "320,00"). */
export function turkishAmount(minor: number): string {
  return `${Math.trunc(minor / 100)},${String(minor % 100).padStart(2, '0')}`;
}

/** "09.08.2024 10:40:34", InterPOS's TRXDATE. */
export function trxDate(now: Date): string {
  const iso = now.toISOString();
  return `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)} ${iso.slice(11, 19)}`;
}
