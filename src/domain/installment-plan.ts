// An account's installment plan: which counts it offers and on which card programs. Banks' virtual
// POS do not quote installments, so an account carries its own rates (`installmentRatesBp`, the
// connector prices with them) and, like a merchant's bank contract, may limit installments to some
// counts and to the card programs its bank runs (Bonus, World, Axess…: the program of the card's
// BIN facts). A single payment is always offered.
import { z } from 'zod';
import type { PaymentAccount, Workspace } from '../generated/prisma/client.ts';
import type { BinInfo, InstallmentOption } from '../providers/types.ts';
import type { Services } from './services.ts';
import { findAccount } from './accounts.ts';
import { IssueList, NotFoundError } from './errors.ts';
import { isUuid, parseInput } from './validation.ts';

type Plan = Pick<PaymentAccount, 'installmentCounts' | 'installmentPrograms'>;

const sameProgram = (a: string, b: string) => a.localeCompare(b, 'tr', { sensitivity: 'base' }) === 0;

/** Whether the account lets this card pay in `count` installments. */
export function allowsInstallments(plan: Plan, card: Pick<BinInfo, 'program'> | null, count: number): boolean {
  if (count === 1) return true;
  if (plan.installmentCounts.length > 0 && !plan.installmentCounts.includes(count)) return false;
  if (plan.installmentPrograms.length === 0) return true;
  const program = card?.program;
  return !!program && plan.installmentPrograms.some((p) => sameProgram(p, program));
}

/** The quote's options this account offers for this card. */
export function offeredInstallments(plan: Plan, card: Pick<BinInfo, 'program'> | null, options: InstallmentOption[]): InstallmentOption[] {
  return options.filter((o) => allowsInstallments(plan, card, o.number));
}

const RATE = /^\d{1,3}(\.\d{1,2})?$/;

const planInput = z
  .object({
    /** Count (2-12) -> total surcharge in percent ("4.5"); the counts given are the ones offered. */
    rates: z.record(z.string(), z.string({ error: 'rate_format' })).nullish(),
    programs: z.array(z.string({ error: 'invalid_type' }).trim().min(1, { error: 'required' }).max(64, { error: 'too_long' }), { error: 'invalid_type' }).nullish(),
  })
  .strict();

/** Percent with at most two decimals, 0-100, as basis points; null when it is not one. */
function basisPoints(percent: string): number | null {
  if (!RATE.test(percent)) return null;
  const [whole, fraction = ''] = percent.split('.');
  const bp = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return bp <= 10_000 ? bp : null;
}

/**
 * Replaces the account's plan: `rates` names the counts offered and their surcharge (none given:
 * every count, at the provider's or default rates); `programs` the card programs allowed (none:
 * any card).
 */
export async function setInstallmentPlan(s: Pick<Services, 'db'>, workspace: Workspace, token: string, raw: unknown): Promise<PaymentAccount> {
  const input = parseInput(planInput, raw);
  const issues = new IssueList();
  const ratesBp: number[] = [];
  const counts: number[] = [];
  for (const [count, percent] of Object.entries(input.rates ?? {})) {
    const n = Number(count);
    if (!/^\d+$/.test(count) || n < 2 || n > 12) issues.add(['rates', count], 'installment_range');
    const bp = basisPoints(percent);
    if (bp === null) issues.add(['rates', count], 'rate_format');
    if (n >= 2 && n <= 12 && bp !== null) {
      counts.push(n);
      ratesBp[n - 1] = bp;
    }
  }
  issues.throwIfAny();
  const account = isUuid(token) ? await findAccount(s.db, workspace.id, token) : null;
  if (!account) throw NotFoundError.single(['token'], 'account_not_found');
  // Counts not offered keep the default rate in the table; they are filtered out by `installmentCounts`.
  const table = counts.length === 0 ? [] : Array.from({ length: 12 }, (_, i) => ratesBp[i] ?? (i === 0 ? 0 : 150 * i));
  return s.db.paymentAccount.update({
    where: { id: account.id },
    data: { installmentRatesBp: table, installmentCounts: counts.sort((a, b) => a - b), installmentPrograms: [...new Set(input.programs ?? [])] },
  });
}

/** The plan as people read it: counts offered with their surcharge in percent, and the programs. */
export function describePlan(a: Pick<PaymentAccount, 'installmentCounts' | 'installmentPrograms' | 'installmentRatesBp'>): { counts: number[]; rates: Record<string, string>; programs: string[] } {
  const percent = (bp: number) => `${Math.trunc(bp / 100)}.${String(bp % 100).padStart(2, '0')}`;
  const rates = Object.fromEntries(a.installmentCounts.map((n) => [String(n), percent(a.installmentRatesBp[n - 1] ?? 150 * (n - 1))]));
  return { counts: a.installmentCounts, rates, programs: a.installmentPrograms };
}
