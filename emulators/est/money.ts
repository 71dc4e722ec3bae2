/** EST's currency codes (ISO 4217 numeric) the emulator takes. */
export const CURRENCIES: Record<string, string> = { '949': 'TRY', '840': 'USD', '978': 'EUR', '826': 'GBP' };

/**
 * EST amounts are decimal strings ("100.25", "1", "1.5"); the emulator keeps integer minor units
 * so refund arithmetic is exact. Null for anything else (more than 2 decimals, signs, floats' junk).
 */
export function toMinor(text: string | undefined): number | null {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec((text ?? '').trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Minor units back to EST's decimal string: 10025 -> "100.25". */
export function toAmount(minor: number): string {
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}
