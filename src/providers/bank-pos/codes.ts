// The pieces every bank's code map (its codes.ts) is written with: a bank code becomes the
// gateway's `error_code` (docs/decisions.md) and says whether it is a decline (the card or the bank
// said no: the same request is refused again) or a failure of the provider or of our request.
// Each bank keeps its own table: the same ISO 8583 code does not mean the same at every bank.
export type CodeRule = readonly ['declined' | 'error', string];

export const declined = (code: string): CodeRule => ['declined', code];
export const CARD_DECLINED = declined('card_declined');
export const PROVIDER_ERROR: CodeRule = ['error', 'provider_error'];

/** The rule for a code; an unknown code is a card decline (the bank refused, for a reason not listed). */
export function ruleOf(table: Readonly<Record<string, CodeRule>>, code: string): CodeRule {
  return table[code] ?? CARD_DECLINED;
}
