// What an account costs the merchant for one payment: a commission in basis points per
// installment count (1-12) plus a fixed fee in minor units, from the account's cost tables. A
// table may be for one card program ("Bonus") and for on-us cards (the card's issuer is the
// account's own bank, `PaymentAccount.issuerCode`) or not-on-us cards; the most specific table
// that prices the count wins. Integers only: the commission is rounded half up to the minor unit.
import type { AccountCost, CostCards, PaymentAccount } from '../../generated/prisma/client.ts';
import type { BinInfo } from '../../providers/types.ts';
import { percentOf } from '../money.ts';

export type PricedAccount = Pick<PaymentAccount, 'issuerCode'> & { costs: readonly AccountCost[] };

export interface Cost {
  /** Commission plus fixed fee, in minor units of the payment's currency. */
  total: bigint;
  commissionBp: number;
  fixedFee: bigint;
  /** The table that priced it. */
  tableId: string;
}

const sameProgram = (a: string, b: string) => a.localeCompare(b, 'tr', { sensitivity: 'base' }) === 0;

/** Whether the card's issuer is the account's own bank; unknown either side is not on-us. */
export function isOnUs(account: Pick<PaymentAccount, 'issuerCode'>, card: Pick<BinInfo, 'issuerCode'> | null): boolean {
  return !!account.issuerCode && !!card?.issuerCode && account.issuerCode === card.issuerCode;
}

function tableFits(table: AccountCost, card: Pick<BinInfo, 'program'> | null, onUs: boolean): boolean {
  if (table.program && !(card?.program && sameProgram(table.program, card.program))) return false;
  const wanted: Record<CostCards, boolean> = { any: true, on_us: onUs, not_on_us: !onUs };
  return wanted[table.cards];
}

/** A program table is more specific than an on-us one, which is more specific than one for any card. */
const specificity = (table: AccountCost): number => (table.program ? 2 : 0) + (table.cards === 'any' ? 0 : 1);

/**
 * The cost of paying `amount` in `count` installments through the account with this card, or null
 * when no table of the account prices that count for the card (unknown cost).
 */
export function costOf(account: PricedAccount, card: Pick<BinInfo, 'program' | 'issuerCode'> | null, amount: bigint, count: number): Cost | null {
  const onUs = isOnUs(account, card);
  const tables = account.costs.filter((t) => tableFits(t, card, onUs)).sort((a, b) => specificity(b) - specificity(a));
  for (const table of tables) {
    const at = table.installmentCounts.indexOf(count);
    if (at < 0) continue;
    const commissionBp = table.commissionBp[at]!;
    return { total: percentOf(amount, BigInt(commissionBp)) + table.fixedFee, commissionBp, fixedFee: table.fixedFee, tableId: table.id };
  }
  return null;
}
