// Test cards: what the emulated issuer and its ACS answer for a card number. Any other card number
// is approved after the ACS page. All are Luhn-valid, as the gateway's card check wants.
export interface CardOutcome {
  /** The issuer's hostResponseCode: '00' approved, else the ISO 8583 decline reason. */
  hostCode: string;
  /** What the ACS does: 'challenge' shows Approve/Decline; 'fail' refuses at once; 'attempt' is the half-secure pass (ECI 06/01). */
  acs: 'challenge' | 'fail' | 'attempt';
}

export const TEST_CARDS: Record<string, CardOutcome & { label: string }> = {
  '4355093000315232': { hostCode: '00', acs: 'challenge', label: "approved (the card in mewebstudio/pos's Akbank vectors)" },
  '5218076007402834': { hostCode: '00', acs: 'challenge', label: 'approved, Mastercard' },
  '4000000000000507': { hostCode: '05', acs: 'challenge', label: 'do not honour (VPS-1005, host 05)' },
  '4000000000005100': { hostCode: '51', acs: 'challenge', label: 'insufficient funds (VPS-1005, host 51)' },
  '4000000000005407': { hostCode: '54', acs: 'challenge', label: 'expired card (VPS-1005, host 54)' },
  '4000000000000572': { hostCode: '57', acs: 'challenge', label: 'not permitted to the cardholder (VPS-1005, host 57)' },
  '4000000000001406': { hostCode: '14', acs: 'challenge', label: 'invalid card number (VPS-1005, host 14)' },
  '4000000000990004': { hostCode: '00', acs: 'fail', label: 'the ACS does not authenticate (VPS-1279) at once' },
  '4000000000994006': { hostCode: '00', acs: 'attempt', label: 'half secure: the ACS answers an attempt (ECI 06/01); Akbank goes on (VPS-0000)' },
};

const HOST_MESSAGES: Record<string, string> = {
  '00': '000 ONAY KODU XXXXXX',
  '05': '005 RED-ONAYLANMADI',
  '14': '014 RED-HATALI KART',
  '51': '051 RED-YETERSIZ BAKIYE',
  '54': '054 RED-KART SURESI DOLMUS',
  '57': '057 RED-KART SAHIBINE IZIN YOK',
};

export function outcomeOf(cardNumber: string): CardOutcome {
  return TEST_CARDS[cardNumber] ?? { hostCode: '00', acs: 'challenge' };
}

/** The issuer's answer for the card at the time: its code, or 54 past the expiry (MMYY, good through its month). */
export function hostCodeOf(cardNumber: string, expiry: string, now: Date): string {
  const month = Number(expiry.slice(0, 2));
  const year = 2000 + Number(expiry.slice(2));
  if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) return '54';
  return outcomeOf(cardNumber).hostCode;
}

export function hostMessageOf(code: string): string {
  return HOST_MESSAGES[code] ?? `0${code} RED-ONAYLANMADI`;
}

export function maskPan(cardNumber: string): string {
  return `${cardNumber.slice(0, 6)}******${cardNumber.slice(-4)}`;
}
