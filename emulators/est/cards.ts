/**
 * Test cards. Any other card number passing the Luhn check is approved with mdStatus 1. Declines
 * answer EST's ProcReturnCode and message; the ACS cards change what the 3-D Secure page answers.
 */
export interface CardOutcome {
  /** ProcReturnCode of the charge: '00' approves. */
  code: string;
  message: string;
  /** The mdStatus the ACS answers when the shopper approves (the Decline button always answers 0). */
  mdStatus: string;
}

const APPROVED: CardOutcome = { code: '00', message: '', mdStatus: '1' };

export const TEST_CARDS: Record<string, CardOutcome & { label: string }> = {
  '4355084355084358': { label: 'approved (Visa)', ...APPROVED },
  '5406675406675403': { label: 'approved (Mastercard)', ...APPROVED },
  '4355080000000054': { label: 'insufficient funds', code: '51', message: 'Yetersiz bakiye.', mdStatus: '1' },
  '4355080000000104': { label: 'do not honour', code: '05', message: 'Islem onaylanmadi.', mdStatus: '1' },
  '4355080000000203': { label: 'expired card', code: '54', message: 'Vadesi dolmus kart.', mdStatus: '1' },
  '4355080000000302': { label: 'invalid CVV', code: '82', message: 'CVV Hatasi veya girilen CVV gecersiz.', mdStatus: '1' },
  '4355080000000401': { label: 'ACS answers mdStatus 0 (authentication failed)', ...APPROVED, mdStatus: '0' },
  '4355080000000500': { label: 'ACS answers mdStatus 4 (attempt, card not enrolled)', ...APPROVED, mdStatus: '4' },
  // The rest of EST's mdStatus values: 2, 3 half secure (the 3D Pay gate charges), 5-9 not authenticated.
  '4355081000000201': { label: 'ACS answers mdStatus 2 (card not enrolled)', ...APPROVED, mdStatus: '2' },
  '4355081000000300': { label: 'ACS answers mdStatus 3 (issuer not enrolled)', ...APPROVED, mdStatus: '3' },
  '4355081000000508': { label: 'ACS answers mdStatus 5 (verification not possible)', ...APPROVED, mdStatus: '5' },
  '4355081000000607': { label: 'ACS answers mdStatus 6 (3-D Secure error)', ...APPROVED, mdStatus: '6' },
  '4355081000000706': { label: 'ACS answers mdStatus 7 (system error)', ...APPROVED, mdStatus: '7' },
  '4355081000000805': { label: 'ACS answers mdStatus 8 (unknown card)', ...APPROVED, mdStatus: '8' },
  '4355081000000904': { label: 'ACS answers mdStatus 9 (member not registered)', ...APPROVED, mdStatus: '9' },
};

export const DECLINE_BY_CONTROL: CardOutcome = { code: '05', message: 'Islem onaylanmadi.', mdStatus: '1' };
const EXPIRED: CardOutcome = { code: '54', message: 'Vadesi dolmus kart.', mdStatus: '1' };

export function luhnValid(pan: string): boolean {
  if (!/^\d{12,19}$/.test(pan)) return false;
  let sum = 0;
  for (let i = 0; i < pan.length; i++) {
    let digit = Number(pan[pan.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** What charging this card answers; a card past its expiry month answers 54 whatever its number. */
export function outcomeOf(pan: string, expMonth: number, expYear: number, now: Date): CardOutcome {
  const fullYear = expYear < 100 ? 2000 + expYear : expYear;
  if (fullYear * 12 + expMonth < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) return EXPIRED;
  return TEST_CARDS[pan] ?? APPROVED;
}

/** "4355 08** **** 4358" as EST's maskedCreditCard, and "435508***4358" as its MaskedPan. */
export function masks(pan: string): { maskedCreditCard: string; MaskedPan: string } {
  const middle = '*'.repeat(pan.length - 10);
  const spaced = `${pan.slice(0, 6)}${middle}${pan.slice(-4)}`.replace(/(.{4})(?=.)/g, '$1 ');
  return { maskedCreditCard: spaced, MaskedPan: `${pan.slice(0, 6)}***${pan.slice(-4)}` };
}

export const brandOf = (pan: string): 'VISA' | 'MASTERCARD' => (pan.startsWith('4') ? 'VISA' : 'MASTERCARD');
