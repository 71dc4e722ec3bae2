// Installment quotes from the account that would charge each count. The cheapest account can
// differ per installment count (its commission table, its plan's counts and programs), so every
// count is routed on its own (choice.ts, on the amount asked, as the payment is) and its option
// taken from that account's quote; each account is asked once. retrieve-bin and the order page
// quote this way, as the attempt then charges; an account's own quote (`installmentOptions`,
// `pageInstallments`) is what the attempt prices a hosted page's payment with.
import type { PaymentAccount, Workspace } from '../../generated/prisma/client.ts';
import type { BinInfo, InstallmentOption } from '../../providers/types.ts';
import type { Services } from '../services.ts';
import type { Currency } from '../money.ts';
import { planCharge, type ChargePlan } from '../charge-currency.ts';
import { ValidationError, type Path } from '../errors.ts';
import { withoutRules } from '../accounts.ts';
import { offeredInstallments } from '../installment-plan.ts';
import { chooseRoute, routeFor, type AccountChoice, type Capability } from './choice.ts';

export const MAX_INSTALLMENTS = 12;

/**
 * Weighted routing rules pick by the payment's id, unknown before the payment: quotes take the
 * pick of this fixed key (docs/decisions.md, routing by cost).
 */
export const QUOTE_SPLIT_KEY = 'quote';

export interface QuoteRequest {
  token: string | null;
  /** Where errors about the account and the currency are reported. */
  paths: { account: Path; currency: Path };
  card: BinInfo;
  currency: Currency;
  amount: bigint;
  needs: readonly Capability[];
  /** The options an account quotes for a charge (`installmentOptions` for the API, `pageInstallments` for a hosted page). */
  quote: (account: PaymentAccount, charge: ChargePlan) => Promise<InstallmentOption[]>;
}

/**
 * The options, each from the account that would charge it. The single payment's account is chosen
 * and checked like a payment's (its errors are the answer's); a count whose account cannot take the
 * currency is left out.
 */
export async function routedInstallments(s: Services, workspace: Workspace, req: QuoteRequest): Promise<InstallmentOption[]> {
  const choice = { token: req.token, path: req.paths.account, needs: req.needs, card: req.card, currency: req.currency, baseAmount: req.amount, splitKey: QUOTE_SPLIT_KEY };
  const single = await chooseRoute(s, workspace, { ...choice, installmentCount: 1 });
  const charge = planCharge(single.account, req.amount, req.currency, s.rates, req.paths.currency);
  if (req.token || charge.currency !== 'TRY') return req.quote(single.account, charge);
  const counts = new Map<string, { account: PaymentAccount; numbers: Set<number> }>([[single.account.id, { account: single.account, numbers: new Set([1]) }]]);
  for (let n = 2; n <= MAX_INSTALLMENTS; n++) {
    const account = await accountFor(s, workspace, { ...choice, installmentCount: n });
    if (!account) continue;
    const entry = counts.get(account.id) ?? { account, numbers: new Set<number>() };
    entry.numbers.add(n);
    counts.set(account.id, entry);
  }
  const options = await Promise.all([...counts.values()].map(async ({ account, numbers }) => (await quoteOf(s, req, account)).filter((o) => numbers.has(o.number))));
  return options.flat().sort((a, b) => a.number - b.number);
}

/** The first candidate for a count, or null when none could be named (no default, no rule). */
async function accountFor(s: Services, workspace: Workspace, choice: AccountChoice): Promise<PaymentAccount | null> {
  try {
    return withoutRules((await routeFor(s, workspace, choice))[0]!.account);
  } catch (err) {
    if (err instanceof ValidationError) return null;
    throw err;
  }
}

async function quoteOf(s: Services, req: QuoteRequest, account: PaymentAccount): Promise<InstallmentOption[]> {
  let charge: ChargePlan;
  try {
    charge = planCharge(account, req.amount, req.currency, s.rates, req.paths.currency);
  } catch (err) {
    if (err instanceof ValidationError) return [];
    throw err;
  }
  return req.quote(account, charge);
}

/**
 * Installment options the account quotes for a charge and offers for this card (its plan's counts
 * and card programs); the contract has them in TRY only.
 */
export async function installmentOptions(s: Services, account: PaymentAccount, charge: ChargePlan, card: BinInfo): Promise<InstallmentOption[]> {
  if (charge.currency !== 'TRY' || charge.amount <= 0n) return [];
  const quoted = await s.providers.forAccount(account).installments({ bin: card.bin, amount: charge.amount, currency: 'TRY', monthlyRatesBp: account.installmentRatesBp });
  return offeredInstallments(account, card, quoted);
}

/**
 * What a hosted page offers: none when conversion sits in between, since the page shows and
 * records the amount in the owner's currency while the quote would be in the charged one.
 */
export async function pageInstallments(s: Services, account: PaymentAccount, charge: ChargePlan, card: BinInfo): Promise<InstallmentOption[]> {
  return charge.conversion ? [] : installmentOptions(s, account, charge, card);
}
