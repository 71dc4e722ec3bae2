// The request rules of secure-payment and regular-payment (contract: endpoint tables, Errors, Limits).
import { z } from 'zod';
import { amount, currency, httpUrl, ip, orderNumberReference, parseInput, uuid } from '../validation.ts';
import { customerInput } from '../customers.ts';
import { IssueList } from '../errors.ts';
import { cardInput } from '../cards.ts';
import { MAX_CARD_PAYMENT } from './attempt.ts';

// The charged card plus card.should_save (stored after a successful payment).
const card = z.object({ ...cardInput.shape, shouldSave: z.boolean({ error: 'invalid_boolean' }).nullish().transform((v) => v ?? false) }, { error: 'card_required' });

const transactionFields = {
  channelToken: uuid(),
  channelReference: orderNumberReference(),
  amount: amount(MAX_CARD_PAYMENT),
  baseAmount: amount(MAX_CARD_PAYMENT).nullish(),
  currency: currency().nullish().transform((c) => c ?? 'TRY'),
  installmentNumber: z.number({ error: 'invalid_integer' }).int({ error: 'invalid_integer' }).min(1, { error: 'installment_range' }).max(12, { error: 'installment_range' }),
  ip: ip(),
  paymentProviderToken: uuid().nullish(),
  savedCardToken: uuid().nullish(),
};

export const secureInput = z.object({
  transaction: z.object({ ...transactionFields, callbackUrl: httpUrl() }, { error: 'required' }),
  customer: customerInput(),
  card: card.nullish(),
});

export const regularInput = z.object({
  transaction: z.object(transactionFields, { error: 'required' }),
  customer: customerInput(),
  card: card.nullish(),
});

export type PaymentInput = z.output<typeof regularInput> & { transaction: { callbackUrl?: string } };

/**
 * What every payment is parsed with: zod's ahead-of-time compiled clones of the schemas above, a
 * fifth of the runtime parser's CPU on a valid body. An invalid one falls back to the runtime
 * parser, so the issues (and their paths) are the runtime's; a schema zod cannot compile stays as is.
 */
export const compiledInputs = { secure: z.compile(secureInput), regular: z.compile(regularInput) };

export function parsePaymentInput(kind: 'secure' | 'regular', raw: unknown): PaymentInput {
  const input: PaymentInput = parseInput(compiledInputs[kind], raw);
  const issues = new IssueList();
  const t = input.transaction;
  if (t.amount <= 0n) issues.add(['transaction', 'amount'], 'amount_positive');
  if (t.baseAmount != null && t.baseAmount > t.amount) issues.add(['transaction', 'baseAmount'], 'base_amount_exceeds');
  if (t.currency !== 'TRY' && t.installmentNumber !== 1) issues.add(['transaction', 'installmentNumber'], 'installment_only_try');
  if (t.savedCardToken) {
    if (input.card) issues.add(['transaction', 'savedCardToken'], 'saved_card_with_card');
    if (t.paymentProviderToken) issues.add(['transaction', 'savedCardToken'], 'saved_card_with_account');
  } else if (!input.card) {
    issues.add(['card'], 'card_required');
  }
  issues.throwIfAny();
  return input;
}
