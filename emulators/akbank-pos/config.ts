// The merchant's terminal as the emulated Akbank knows it, and the money its requests carry.

export interface AkbankTerminal {
  /** merchantSafeId: "Üye İşyeri Güvenli No", 32 characters. */
  merchantSafeId: string;
  /** terminalSafeId: "Terminal Güvenli No", 32 characters. */
  terminalSafeId: string;
  /** The secret key ("Güvenlik anahtarı"): signs API bodies, the 3-D form and the callback. */
  secretKey: string;
}

// mewebstudio/pos's test account (tests/Unit/Crypt/AkbankPosCryptTest.php), so its vectors apply as they are.
export const DEFAULT_AKBANK_TERMINAL: AkbankTerminal = {
  merchantSafeId: '2023090417500272654BD9A49CF07574',
  terminalSafeId: '2023090417500284633D137A249DBBEB',
  secretKey: '3230323330393034313735303032363031353172675f357637355f3273387373745f7233725f73323333383737335f323272383774767276327672323531355f',
};

/** ISO 4217 numbers the emulated Akbank takes (TRY, USD, EUR, JPY, RUB). */
export const CURRENCIES = new Set([949, 840, 978, 392, 643]);

/** "1.10" as minor units; null unless a positive amount with exactly two decimals, as Akbank wants. */
export function minorUnits(decimal: string): number | null {
  const match = /^(\d{1,12})\.(\d{2})$/.exec(decimal);
  if (!match) return null;
  const minor = Number(match[1]) * 100 + Number(match[2]);
  return minor > 0 ? minor : null;
}

/** Minor units as Akbank's JSON writes amounts back: a number (1.01, 30). */
export const amountNumber = (minor: number): number => minor / 100;

/** Istanbul's wall clock, "2024-04-14T16:45:30.123". */
export const istanbulTime = (now: Date): string => new Date(now.getTime() + 3 * 3_600_000).toISOString().slice(0, 23);

/** Akbank's request time: "2024-04-14T16:45:30.000". */
export const REQUEST_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/;
