// A card as the dashboard writes it: its brand by name and its digits masked (first digits and last
// four only, as stored). The payment page, the payments list and saved cards say cards alike.

/** Card schemes by their brand names ("visa" is stored as the BIN source gives it). */
const BRANDS: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', troy: 'Troy', amex: 'American Express', maestro: 'Maestro' };

/** "visa" -> "Visa"; a scheme without a brand name here as it came; none -> null. */
export const brandName = (scheme: string | null | undefined): string | null => (scheme ? (BRANDS[scheme.toLowerCase()] ?? scheme) : null);

/** "Visa 411111•••• 1111" ("•••• 1111" without first digits); null without any digits. */
export function maskedCard(scheme: string | null | undefined, first: string | null | undefined, last: string | null | undefined): string | null {
  if (!first && !last) return null;
  return [brandName(scheme), `${first ?? ''}•••• ${last ?? ''}`.trim()].filter(Boolean).join(' ');
}
