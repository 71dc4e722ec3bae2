// Test cards, the same way at every emulated bank: a card number decides what the issuer answers
// (approved, or the ISO 8583 decline reason, which each bank writes in its own code) and what its
// ACS answers (null: the Approve / Decline page; else an mdStatus at once: "0" not authenticated,
// "4" the half-secure attempt). Any other number is approved; an expired card is "expired".
export type IssuerAnswer = 'approved' | 'insufficient_funds' | 'do_not_honour' | 'expired';

export interface CardOutcome {
  answer: IssuerAnswer;
  mdStatus: string | null;
}

export const TEST_CARDS: Readonly<Record<string, CardOutcome & { label: string }>> = {
  '4506349116608409': { answer: 'approved', mdStatus: null, label: 'approved (ACS page)' },
  '5400619360964581': { answer: 'approved', mdStatus: null, label: 'approved, Mastercard (ACS page)' },
  '4000000000005100': { answer: 'insufficient_funds', mdStatus: null, label: 'insufficient funds' },
  '4000000000000507': { answer: 'do_not_honour', mdStatus: null, label: 'do not honour' },
  '4000000000005407': { answer: 'expired', mdStatus: null, label: 'expired card' },
  '4000000000990004': { answer: 'approved', mdStatus: '0', label: 'ACS answers mdStatus 0 (not authenticated) at once' },
  '4000000000994006': { answer: 'approved', mdStatus: '4', label: 'ACS answers mdStatus 4 (half secure: attempt), then approved' },
};

/** What the issuer answers for a card; expiry is month MM and year YY or YYYY, good through its month. */
export function outcomeOf(cardNumber: string, expiry: { month: string; year: string }, now: Date): CardOutcome {
  const card = TEST_CARDS[cardNumber] ?? { answer: 'approved', mdStatus: null };
  const month = Number(expiry.month);
  const year = Number(expiry.year.length === 2 ? `20${expiry.year}` : expiry.year);
  const expired = !Number.isInteger(month) || !Number.isInteger(year) || year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
  return expired ? { answer: 'expired', mdStatus: card.mdStatus } : card;
}

export function maskPan(cardNumber: string): string {
  return `${cardNumber.slice(0, 6)}******${cardNumber.slice(-4)}`;
}
