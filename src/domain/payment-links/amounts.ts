// What one payment of a link charges (contract: create-payment-link "Amount rules"): a fixed link's
// current items with their VAT contained; for the other types one item named `item_name` whose
// VAT is separated out of the amount (inclusive) or added on top of it (exclusive).
import type { PaymentLink, PaymentLinkItem } from '../../generated/prisma/client.ts';
import { divideHalfUp, formatAmount, formatRate } from '../money.ts';
import { orderTotals } from '../orders/view.ts';

export interface LinkCharge {
  /** What the card is charged. */
  amount: bigint;
  subtotal: bigint;
  taxAmount: bigint;
  /** The items as paid, kept on the link payment. */
  items: Array<{ name: string; quantity: number; unitAmount: string; taxRate: string | null }>;
}

export function fixedCharge(items: PaymentLinkItem[]): LinkCharge {
  const totals = orderTotals(items);
  return {
    amount: totals.amount,
    subtotal: totals.subtotal,
    taxAmount: totals.taxAmount,
    items: items.map((i) => ({ name: i.name, quantity: i.quantity, unitAmount: formatAmount(i.unitAmount), taxRate: i.taxRate === null ? null : formatRate(BigInt(i.taxRate)) })),
  };
}

/** `asked` is the payer's amount (typed or chosen); rates are hundredths of a percent. */
export function singleItemCharge(link: Pick<PaymentLink, 'itemName' | 'taxRate' | 'taxMode'>, asked: bigint): LinkCharge {
  const rate = BigInt(link.taxRate ?? 0);
  const item = { name: link.itemName ?? '', quantity: 1, taxRate: link.taxRate === null ? null : formatRate(rate) };
  if (link.taxMode === 'exclusive') {
    const taxAmount = divideHalfUp(asked * rate, 10_000n);
    return { amount: asked + taxAmount, subtotal: asked, taxAmount, items: [{ ...item, unitAmount: formatAmount(asked + taxAmount) }] };
  }
  const taxAmount = rate === 0n ? 0n : divideHalfUp(asked * rate, 10_000n + rate);
  return { amount: asked, subtotal: asked - taxAmount, taxAmount, items: [{ ...item, unitAmount: formatAmount(asked) }] };
}
