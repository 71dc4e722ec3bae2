// retrieve-bin: card scheme/issuer data and installment options for a BIN. No charge is made.
import { z } from 'zod';
import type { Workspace } from '../generated/prisma/client.ts';
import type { BinInfo, InstallmentOption } from '../providers/types.ts';
import type { Services } from './services.ts';
import { amount, currency, parseInput, uuid } from './validation.ts';
import { selectAccount } from './accounts.ts';
import { lookupBin } from './bin-source.ts';
import { planCharge } from './charge-currency.ts';
import { requireActive } from './plans.ts';
import { installmentOptions, MAX_CARD_PAYMENT } from './payments/attempt.ts';

const binDigits = z
  .string({ error: 'invalid_type' })
  .refine((v) => /^\d*$/.test(v), { error: 'bin_digits_only', abort: true })
  .refine((v) => v.length >= 6, { error: 'bin_too_short', abort: true })
  .refine((v) => v.length <= 8, { error: 'bin_too_long' });

export const retrieveBinInput = z.object({
  card: z.object({ bin: binDigits }, { error: 'invalid_type' }),
  transaction: z.object(
    {
      amount: amount(MAX_CARD_PAYMENT).refine((minor) => minor > 0n, { error: 'amount_positive' }),
      currency: currency().nullish().transform((c) => c ?? 'TRY'),
      paymentProviderToken: uuid().nullish(),
    },
    { error: 'invalid_type' },
  ),
});

export interface RetrieveBinResult {
  card: BinInfo;
  installments: InstallmentOption[];
}

export async function retrieveBin(s: Services, workspace: Workspace, raw: unknown): Promise<RetrieveBinResult> {
  requireActive(workspace);
  const input = parseInput(retrieveBinInput, raw);
  const bin = input.card.bin;
  const card = await lookupBin(s, workspace, bin);
  const account = await selectAccount(s.db, workspace, {
    token: input.transaction.paymentProviderToken,
    path: ['transaction', 'paymentProviderToken'],
    // Routing matches BIN prefixes on the digits sent, not on the shorter range the provider knew.
    card: { bin: { ...card, bin }, currency: input.transaction.currency, amount: input.transaction.amount },
  });
  const charge = planCharge(account, input.transaction.amount, input.transaction.currency, s.rates, ['transaction', 'currency']);
  // The contract: installments only in TRY, including when conversion charges the card in TRY's place.
  return { card: { ...card, bin }, installments: await installmentOptions(s, account, charge, { ...card, bin }) };
}
