// The merchant's terminal as the emulated bank knows it.
export interface GarantiCredentials {
  merchantId: string;
  terminalId: string;
  /** PROVAUT: sales and order inquiries. */
  provisionUser: string;
  provisionPassword: string;
  /** PROVRFN: refunds and voids. */
  refundUser: string;
  refundPassword: string;
  /** The 3-D Secure store key. */
  storeKey: string;
}

// mewebstudio/pos's test terminal (tests/Unit/Crypt/GarantiPosCryptTest.php), so its vectors apply as they are.
export const DEFAULT_GARANTI_CREDENTIALS: GarantiCredentials = {
  merchantId: '7000679',
  terminalId: '30691298',
  provisionUser: 'PROVAUT',
  provisionPassword: '123qweASD/',
  refundUser: 'PROVRFN',
  refundPassword: '123qweASD/',
  storeKey: '12345678',
};

/** ISO 4217 numeric codes GVP takes; amounts are always integer minor units. */
export const CURRENCIES = new Set(['949', '840', '978', '826', '392']);

export function isMinorUnits(value: string): boolean {
  return /^[1-9]\d{0,14}$/.test(value);
}
