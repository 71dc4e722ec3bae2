// Test cards: what the emulated issuer answers for a card number. Any other card number is approved.
export interface CardOutcome {
  /** The host's answer code: '00' approved, else GVP's decline code. */
  code: string;
  /** What the ACS answers without a challenge (an mdstatus 0-9); null shows the Approve/Decline page. */
  mdStatus: string | null;
}

export const TEST_CARDS: Record<string, CardOutcome & { label: string }> = {
  '4282209027132016': { code: '00', mdStatus: null, label: 'approved' },
  '5406675406675403': { code: '00', mdStatus: null, label: 'approved' },
  '4000000000005100': { code: '51', mdStatus: null, label: 'insufficient funds (51)' },
  '4000000000000507': { code: '05', mdStatus: null, label: 'do not honour (05)' },
  '4000000000005407': { code: '54', mdStatus: null, label: 'expired card (54)' },
  '4000000000990004': { code: '00', mdStatus: '0', label: 'ACS answers mdstatus 0 (not authenticated)' },
  '4000000000994006': { code: '00', mdStatus: '4', label: 'ACS answers mdstatus 4 (attempt), then approved' },
  // The rest of GVP's mdstatus values: 1-3 authenticate (the 3D Pay gate charges), 5-9 do not.
  '4000000000991002': { code: '00', mdStatus: '1', label: 'ACS answers mdstatus 1 without a challenge, then approved' },
  '4000000000992000': { code: '00', mdStatus: '2', label: 'ACS answers mdstatus 2 (card not enrolled), then approved' },
  '4000000000993008': { code: '00', mdStatus: '3', label: 'ACS answers mdstatus 3 (issuer not enrolled), then approved' },
  '4000000000995003': { code: '00', mdStatus: '5', label: 'ACS answers mdstatus 5 (verification not possible)' },
  '4000000000996001': { code: '00', mdStatus: '6', label: 'ACS answers mdstatus 6 (3-D Secure error)' },
  '4000000000997009': { code: '00', mdStatus: '7', label: 'ACS answers mdstatus 7 (system error)' },
  '4000000000998007': { code: '00', mdStatus: '8', label: 'ACS answers mdstatus 8 (unknown card)' },
  '4000000000999005': { code: '00', mdStatus: '9', label: 'ACS answers mdstatus 9 (member not registered)' },
};

const MESSAGES: Record<string, string> = {
  '00': 'Approved',
  '05': 'Islem onaylanmadi',
  '51': 'Limit yetersiz',
  '54': 'Vadesi dolmus kart',
};

export function outcomeOf(cardNumber: string, expiry: { month: string; year: string } | null, now: Date): CardOutcome {
  const card = TEST_CARDS[cardNumber] ?? { code: '00', mdStatus: null };
  if (expiry && isExpired(expiry, now)) return { code: '54', mdStatus: card.mdStatus };
  return { code: card.code, mdStatus: card.mdStatus };
}

export function messageOf(code: string): string {
  return MESSAGES[code] ?? 'Islem onaylanmadi';
}

/** Month MM and year YY (GVP's form) or YYYY; a card is good through the end of its month. */
function isExpired(expiry: { month: string; year: string }, now: Date): boolean {
  const month = Number(expiry.month);
  const year = Number(expiry.year.length === 2 ? `20${expiry.year}` : expiry.year);
  if (!Number.isInteger(month) || !Number.isInteger(year)) return true;
  return year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}

export function maskPan(cardNumber: string): string {
  return `${cardNumber.slice(0, 6)}******${cardNumber.slice(-4)}`;
}
