// Test cards: what the emulated issuer and its ACS answer for a card number. Any other card number
// is approved after the ACS page. All are Luhn-valid, as the gateway's card check wants.
export interface CardOutcome {
  /** The host's ProcReturnCode: '00' approved, else the decline. */
  code: string;
  /** What the ACS answers without a challenge (a 3DStatus); null shows the Approve/Decline page. */
  threeDStatus: string | null;
  /** The sale stays in the day's open batch: a refund is answered V014 (cancel it instead), as PayFor does. */
  openBatch?: boolean;
}

export const TEST_CARDS: Record<string, CardOutcome & { label: string }> = {
  '4155650100416111': { code: '00', threeDStatus: null, label: "approved (QNB Finansbank's own test card)" },
  '5406675406675403': { code: '00', threeDStatus: null, label: 'approved' },
  '4000000000000507': { code: '05', threeDStatus: null, label: 'do not honour (05)' },
  '4000000000005100': { code: '51', threeDStatus: null, label: 'insufficient funds (51)' },
  '4000000000005407': { code: '54', threeDStatus: null, label: 'expired card (54)' },
  '4000000000000572': { code: '57', threeDStatus: null, label: 'not permitted to the cardholder (57)' },
  '4000000000990004': { code: '00', threeDStatus: '0', label: 'ACS answers 3DStatus 0 (not authenticated)' },
  '4000000000994006': { code: '00', threeDStatus: '4', label: 'ACS answers 3DStatus 4 (attempt, "half secure"): the 3D Pay gate charges, the 3D model connector stops' },
  '4000000000992000': { code: '00', threeDStatus: '2', label: 'ACS answers 3DStatus 2 (card not enrolled, "half secure")' },
  '4000000000080012': { code: '00', threeDStatus: null, openBatch: true, label: "approved; the sale stays in the day's batch, so a refund is answered V014" },
};

const MESSAGES: Record<string, string> = {
  '00': 'Onaylandı',
  '05': 'Red-Onaylanmadı',
  '51': 'Limit yetersiz',
  '54': 'Kartın süresi dolmuş',
  '57': 'Kart sahibine bu işlem izni verilmemiş',
};

export function outcomeOf(cardNumber: string, expiry: string | null, now: Date): CardOutcome {
  const card = TEST_CARDS[cardNumber] ?? { code: '00', threeDStatus: null };
  if (expiry !== null && isExpired(expiry, now)) return { ...card, code: '54' };
  return card;
}

export function messageOf(code: string): string {
  return MESSAGES[code] ?? 'Red-Onaylanmadı';
}

/** PayFor's Expiry is MMYY; a card is good through the end of its month. */
function isExpired(expiry: string, now: Date): boolean {
  const month = Number(expiry.slice(0, 2));
  const year = 2000 + Number(expiry.slice(2));
  return year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}

export function maskPan(cardNumber: string): string {
  return `${cardNumber.slice(0, 6)}******${cardNumber.slice(-4)}`;
}
