// retrieve-bin: card scheme/issuer data and installment options for a BIN. No charge is made.
import { z } from 'zod';
import type { Workspace } from '../generated/prisma/client.ts';
import type { BinInfo, InstallmentOption } from '../providers/types.ts';
import type { Services } from './services.ts';
import { amount, currency, parseInput, uuid } from './validation.ts';
import { lookupBin } from './bin-source.ts';
import { installmentOptions, routedInstallments } from './routing/quotes.ts';
import { requireActive } from './plans.ts';
import { MAX_CARD_PAYMENT } from './payments/attempt.ts';

export const binDigits = z
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
  // Routing matches BIN prefixes on the digits sent, not on the shorter range the provider knew.
  const known = { ...card, bin };
  // Each count is quoted by the account that would charge it; the contract has installments only
  // in TRY, including when conversion charges the card in TRY's place.
  const installments = await routedInstallments(s, workspace, {
    token: input.transaction.paymentProviderToken ?? null,
    paths: { account: ['transaction', 'paymentProviderToken'], currency: ['transaction', 'currency'] },
    card: known,
    currency: input.transaction.currency,
    amount: input.transaction.amount,
    needs: [],
    quote: (account, charge) => installmentOptions(s, account, charge, known),
  });
  return { card: known, installments };
}
