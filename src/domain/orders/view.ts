// An order with what its responses and its checkout page show: items, customer, the payment that
// paid it, the VAT contained in the prices, and the checkout address.
import type { Customer, Order, OrderItem, Payment } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import { divideHalfUp } from '../money.ts';

export type OrderView = Order & { items: OrderItem[]; customer: Customer; payments: Payment[] };

export const orderInclude = {
  items: { orderBy: { position: 'asc' as const } },
  customer: true,
  payments: { orderBy: [{ createdAt: 'asc' as const }, { id: 'asc' as const }] },
};

export async function loadOrderView(db: Tx, id: string): Promise<OrderView> {
  return db.order.findUniqueOrThrow({ where: { id }, include: orderInclude });
}

export function checkoutUrlOf(baseUrl: string, orderId: string): string {
  return `${baseUrl}/checkout/order/${orderId}`;
}

/** The payment that paid the order (kept when it is later refunded or cancelled); null while open. */
export function paidWith(payments: Payment[]): Payment | null {
  return payments.find((p) => p.status === 'successful') ?? null;
}

export interface LineAmounts {
  total: bigint;
  /** VAT contained in `total` (prices include VAT). */
  tax: bigint;
}

/** unit x quantity, and the VAT inside it: total x rate / (100 % + rate), rounded half-up. */
export function lineAmounts(item: Pick<OrderItem, 'unitAmount' | 'quantity' | 'taxRate'>): LineAmounts {
  const total = item.unitAmount * BigInt(item.quantity);
  const rate = BigInt(item.taxRate ?? 0);
  return { total, tax: rate === 0n ? 0n : divideHalfUp(total * rate, 10_000n + rate) };
}

export interface OrderTotals {
  amount: bigint;
  taxAmount: bigint;
  /** Amount excluding VAT. */
  subtotal: bigint;
}

export function orderTotals(items: Array<Pick<OrderItem, 'unitAmount' | 'quantity' | 'taxRate'>>): OrderTotals {
  let amount = 0n;
  let taxAmount = 0n;
  for (const item of items) {
    const line = lineAmounts(item);
    amount += line.total;
    taxAmount += line.tax;
  }
  return { amount, taxAmount, subtotal: amount - taxAmount };
}
