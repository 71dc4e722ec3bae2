// A merchant's settings for routing by cost: an account's cost tables (commission per installment
// count, for some cards, plus a fixed fee) and a bank account's own issuer code (which cards are
// on-us). Checked here by field path for the CLI and GraphQL alike; a bad input writes nothing.
import { z } from 'zod';
import type { AccountCost, CostCards, PaymentAccount, Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { findAccount } from '../accounts.ts';
import { formatAmount, formatRate, parseAmount, parseRate } from '../money.ts';
import { IssueList, NotFoundError } from '../errors.ts';
import { isUuid, parseInput } from '../validation.ts';

export const COST_CARDS = ['any', 'on_us', 'not_on_us'] as const satisfies readonly CostCards[];

const costInput = z
  .object({
    /** Installment count (1-12) -> commission in percent with at most two decimals ("1.79"); none: the table is removed. */
    rates: z.record(z.string(), z.union([z.string(), z.number()], { error: 'rate_format' })).nullish(),
    /** Card program the table prices (BIN facts' program); none: any program. */
    program: z.string({ error: 'invalid_type' }).trim().max(64, { error: 'too_long' }).nullish(),
    cards: z.string({ error: 'invalid_type' }).nullish(),
    /** Fixed fee per payment, in the payment's currency ("0.25"). */
    fixedFee: z.union([z.string(), z.number()], { error: 'amount_format' }).nullish(),
  })
  .strict();

export type AccountWithCosts = PaymentAccount & { costs: AccountCost[] };

const sameProgram = (a: string, b: string) => a.localeCompare(b, 'tr', { sensitivity: 'base' }) === 0;

/**
 * Replaces the account's cost table for one program (or any) and one kind of card (any, on_us,
 * not_on_us). Rates given are the counts priced; no rates removes that table.
 */
export async function setAccountCosts(s: Pick<Services, 'db'>, workspace: Workspace, token: string, raw: unknown): Promise<AccountWithCosts> {
  const input = parseInput(costInput, raw);
  const issues = new IssueList();
  const priced: Array<[number, number]> = [];
  for (const [count, percent] of Object.entries(input.rates ?? {})) {
    const n = Number(count);
    const bp = parseRate(percent);
    if (!/^\d+$/.test(count) || n < 1 || n > 12) issues.add(['rates', count], 'installment_range');
    else if (bp === null) issues.add(['rates', count], 'rate_format');
    else priced.push([n, Number(bp)]);
  }
  const cards = (input.cards || 'any') as CostCards;
  if (!(COST_CARDS as readonly string[]).includes(cards)) issues.add(['cards'], 'value_not_allowed', { allowed: COST_CARDS.join(', ') });
  const fixedFee = input.fixedFee == null || input.fixedFee === '' ? 0n : parseAmount(input.fixedFee);
  if (fixedFee === null) issues.add(['fixedFee'], 'amount_format');
  issues.throwIfAny();
  const account = await requireAccount(s, workspace, token);
  const program = input.program ?? '';
  priced.sort(([a], [b]) => a - b);
  await s.db.$transaction(async (tx) => {
    const tables = await tx.accountCost.findMany({ where: { paymentAccountId: account.id, cards } });
    const replaced = tables.filter((t) => (t.program === '' ? program === '' : program !== '' && sameProgram(t.program, program)));
    await tx.accountCost.deleteMany({ where: { id: { in: replaced.map((t) => t.id) } } });
    if (priced.length === 0) return;
    await tx.accountCost.create({
      data: { workspaceId: workspace.id, paymentAccountId: account.id, program, cards, installmentCounts: priced.map(([n]) => n), commissionBp: priced.map(([, bp]) => bp), fixedFee: fixedFee! },
    });
  });
  return withCosts(s, account);
}

const issuerInput = z.object({ issuerCode: z.string({ error: 'invalid_type' }).trim().max(16, { error: 'too_long' }).nullish() }).strict();

/** The bank's own issuer code on a bank account (cards of that issuer are on-us); null clears it. */
export async function setAccountIssuerCode(s: Pick<Services, 'db'>, workspace: Workspace, token: string, raw: unknown): Promise<AccountWithCosts> {
  const { issuerCode } = parseInput(issuerInput, raw);
  const account = await requireAccount(s, workspace, token);
  const updated = await s.db.paymentAccount.update({ where: { id: account.id }, data: { issuerCode: issuerCode || null } });
  return withCosts(s, updated);
}

async function requireAccount(s: Pick<Services, 'db'>, workspace: Workspace, token: string): Promise<PaymentAccount> {
  const account = isUuid(token) ? await findAccount(s.db, workspace.id, token) : null;
  if (!account) throw NotFoundError.single(['token'], 'account_not_found');
  return account;
}

async function withCosts(s: Pick<Services, 'db'>, account: PaymentAccount): Promise<AccountWithCosts> {
  return { ...account, costs: await s.db.accountCost.findMany({ where: { paymentAccountId: account.id }, orderBy: { createdAt: 'asc' } }) };
}

export interface CostTableView {
  program: string | null;
  cards: CostCards;
  /** Installment count -> commission in percent ("1.79"). */
  rates: Record<string, string>;
  fixedFee: string;
}

/** A cost table as people read it: percent and major units with two decimals. */
export function describeCosts(costs: readonly AccountCost[]): CostTableView[] {
  return costs.map((t) => ({
    program: t.program || null,
    cards: t.cards,
    rates: Object.fromEntries(t.installmentCounts.map((n, i) => [String(n), formatRate(BigInt(t.commissionBp[i]!))])),
    fixedFee: formatAmount(t.fixedFee),
  }));
}
