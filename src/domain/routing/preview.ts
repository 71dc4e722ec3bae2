// "Which account would take this card?": the ordered candidates for a BIN, amount, currency and
// installment count, each with its reason, its cost and its installment quote, without charging.
// The same candidates function as a payment, so the answer is what a payment would do (weighted
// rules picked with the quotes' fixed key, capability checks of 3D or non-3D left out).
import { z } from 'zod';
import type { PaymentAccount, Workspace } from '../../generated/prisma/client.ts';
import type { BinInfo, InstallmentOption } from '../../providers/types.ts';
import type { Services } from '../services.ts';
import { amount, currency, parseInput } from '../validation.ts';
import { withoutRules } from '../accounts.ts';
import { lookupBin } from '../bin-source.ts';
import { planCharge } from '../charge-currency.ts';
import { ValidationError } from '../errors.ts';
import { binDigits } from '../bin.ts';
import { MAX_CARD_PAYMENT } from '../payments/attempt.ts';
import { routeFor } from './choice.ts';
import type { Candidate } from './candidates.ts';
import type { Cost } from './costs.ts';
import { installmentOptions, MAX_INSTALLMENTS, QUOTE_SPLIT_KEY } from './quotes.ts';

const previewInput = z
  .object({
    bin: binDigits,
    amount: amount(MAX_CARD_PAYMENT).refine((minor) => minor > 0n, { error: 'amount_positive' }),
    currency: currency().nullish().transform((c) => c ?? 'TRY'),
    installmentCount: z.number({ error: 'invalid_integer' }).int({ error: 'invalid_integer' }).min(1, { error: 'installment_range' }).max(MAX_INSTALLMENTS, { error: 'installment_range' }).nullish(),
  })
  .strict();

export interface PreviewCandidate {
  account: PaymentAccount;
  reason: Candidate['reason'];
  ruleId: string | null;
  cost: Cost | null;
  /** The account's quote for this card and amount, and its option for the count asked. */
  installments: InstallmentOption[];
  installment: InstallmentOption | null;
}

export interface RoutePreview {
  card: BinInfo;
  installmentCount: number;
  candidates: PreviewCandidate[];
}

export async function previewRoute(s: Services, workspace: Workspace, raw: unknown): Promise<RoutePreview> {
  const input = parseInput(previewInput, raw);
  const card = { ...(await lookupBin(s, workspace, input.bin)), bin: input.bin };
  const installmentCount = input.installmentCount ?? 1;
  const candidates = await routeFor(s, workspace, {
    token: null,
    path: ['bin'],
    needs: [],
    card,
    currency: input.currency,
    baseAmount: input.amount,
    installmentCount,
    splitKey: QUOTE_SPLIT_KEY,
  });
  const previewed = await Promise.all(
    candidates.map(async (c) => {
      const account = withoutRules(c.account);
      const installments = await quote(s, account, input.amount, input.currency, card);
      return { account, reason: c.reason, ruleId: c.ruleId, cost: c.cost, installments, installment: installments.find((o) => o.number === installmentCount) ?? null };
    }),
  );
  return { card, installmentCount, candidates: previewed };
}

/** The account's quote; none when it cannot take the currency (a default listed anyway). */
async function quote(s: Services, account: PaymentAccount, amountMinor: bigint, cur: Parameters<typeof planCharge>[2], card: BinInfo): Promise<InstallmentOption[]> {
  try {
    return await installmentOptions(s, account, planCharge(account, amountMinor, cur, s.rates, ['currency']), card);
  } catch (err) {
    if (err instanceof ValidationError) return [];
    throw err;
  }
}
