// The merchant's account as the emulated PayFor knows it, and the money PayFor's forms carry.

export interface PayforTerminal {
  /** MerchantId / MerchantID: the merchant number. */
  merchantId: string;
  /** The API user that sells, refunds, voids and asks. */
  userCode: string;
  userPassword: string;
  /** MerchantPass, the "3D Secure şifresi": signs the gate form and the callback. */
  storeKey: string;
}

// mewebstudio/pos's test account (tests/Unit/Crypt/PayForPosCryptTest.php), so its vectors apply as they are.
export const DEFAULT_PAYFOR_TERMINAL: PayforTerminal = {
  merchantId: '085300000009704',
  userCode: 'QNB_API_KULLANICI_3DPAY',
  userPassword: 'UcBN0',
  storeKey: '12345678',
};

/** QNB Finansbank's member code: every form and XML request names it. */
export const MBR_ID = '5';

/** ISO 4217 numeric codes the emulated PayFor takes. */
export const CURRENCIES = new Set(['949', '840', '978', '826']);

/** "100.25", "100.5" or "100" as minor units; null when it is not a positive amount with at most two decimals. */
export function minorUnits(decimal: string): number | null {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(decimal);
  if (!match) return null;
  const minor = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return minor > 0 ? minor : null;
}

/** Minor units as the bank writes them back: two decimals. */
export function decimalOf(minor: number): string {
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}
