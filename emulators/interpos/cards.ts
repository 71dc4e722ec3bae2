// Test cards: what the emulated issuer answers for a card number. Any other card number is approved.
export interface CardOutcome {
  /** The host's answer code: '00' approved, else the issuer's decline code. */
  code: string;
  /** What the ACS answers without a challenge (an mdStatus 0-9); null shows the Approve/Decline page. */
  mdStatus: string | null;
}

export const TEST_CARDS: Record<string, CardOutcome & { label: string }> = {
  // mewebstudio/pos's InterPOS test cards (examples/interpos/_payment_config.php).
  '4090700090840057': { code: '00', mdStatus: null, label: 'approved' },
  '4090700101174272': { code: '00', mdStatus: null, label: 'approved' },
  '5406675406675403': { code: '00', mdStatus: null, label: 'approved (Mastercard)' },
  '4000000000000507': { code: '05', mdStatus: null, label: 'do not honour (05)' },
  '4000000000005100': { code: '51', mdStatus: null, label: 'insufficient funds (51)' },
  '4000000000005407': { code: '54', mdStatus: null, label: 'expired card (54)' },
  '4000000000008203': { code: '82', mdStatus: null, label: 'wrong CVV2 (82)' },
  '4000000000990004': { code: '00', mdStatus: '0', label: 'ACS answers mdStatus 0 (not authenticated)' },
  '4000000000991002': { code: '00', mdStatus: '1', label: 'ACS answers mdStatus 1 without a challenge, then approved' },
  '4000000000992000': { code: '00', mdStatus: '2', label: 'half secure: mdStatus 2 (card not enrolled), then approved' },
  '4000000000993008': { code: '00', mdStatus: '3', label: 'half secure: mdStatus 3 (issuer not enrolled), then approved' },
  '4000000000994006': { code: '00', mdStatus: '4', label: 'half secure: mdStatus 4 (attempt), then approved' },
  '4000000000995003': { code: '00', mdStatus: '5', label: 'ACS answers mdStatus 5 (verification not possible)' },
  '4000000000997009': { code: '00', mdStatus: '7', label: 'ACS answers mdStatus 7 (system error)' },
};

const MESSAGES: Record<string, string> = {
  '00': 'Onaylandi',
  '05': 'Islem onaylanmadi',
  '51': 'Limit yetersiz',
  '54': 'Vadesi dolmus kart',
  '82': 'CVV hatali',
};

/** The outcome for a card; a past expiry (MMYY) is 54 whatever the card. */
export function outcomeOf(cardNumber: string, expiry: string | null, now: Date): CardOutcome {
  const card = TEST_CARDS[cardNumber] ?? { code: '00', mdStatus: null };
  if (expiry !== null && isExpired(expiry, now)) return { code: '54', mdStatus: card.mdStatus };
  return { code: card.code, mdStatus: card.mdStatus };
}

export function messageOf(code: string): string {
  return MESSAGES[code] ?? 'Islem onaylanmadi';
}

/** MMYY; a card is good through the end of its month. */
function isExpired(expiry: string, now: Date): boolean {
  const match = /^(\d{2})(\d{2})$/.exec(expiry);
  if (!match) return true;
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  if (month < 1 || month > 12) return true;
  return year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}

export function maskPan(cardNumber: string): string {
  return `${cardNumber.slice(0, 6)}******${cardNumber.slice(-4)}`;
}
