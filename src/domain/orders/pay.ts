// Paying an order on its hosted checkout page: the card form starts a 3D payment attempt owned by
// the order (owner.ts), whose return POST goes to the order's success_url. One attempt at a time
// per order: its row lock serialises two submits, and an attempt still waiting on its 3D page is
// replaced by a new one.
import { z } from 'zod';
import { Prisma, type Order, type Workspace } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import type { Services } from '../services.ts';
import type { BinInfo, InstallmentOption } from '../../providers/types.ts';
import { isUuid, parseInput } from '../validation.ts';
import { requireActive } from '../plans.ts';
import { pageInstallments, routedInstallments } from '../routing/quotes.ts';
import { StateError } from '../errors.ts';
import { message } from '../messages.ts';
import { cardInput } from '../cards.ts';
import { attemptPayment, THREE_DS_WINDOW_MS } from '../payments/attempt.ts';
import { pageBinLookup, typedCard } from '../payments/card-source.ts';
import { shopperOf } from '../customers.ts';
import { loadOrderView, type OrderView } from './view.ts';
import { queryRows } from '../../db/raw.ts';

export type CheckoutOrder = OrderView & { workspace: Workspace };

/** The order behind a checkout address, or null (unknown tokens and malformed ones alike). */
export async function findCheckoutOrder(s: Services, token: string): Promise<CheckoutOrder | null> {
  if (!isUuid(token)) return null;
  const found = await s.db.order.findUnique({ where: { id: token }, include: { workspace: true } });
  if (!found) return null;
  return { ...(await loadOrderView(s.db, found.id)), workspace: found.workspace };
}

/**
 * Installment options for the card being typed, from its 6-8 digit BIN: each count quoted by the
 * account the payment would use for it (the order's, else routing by cost, else default), as the
 * attempt will.
 */
export async function orderInstallments(s: Services, order: CheckoutOrder, bin: string): Promise<{ card: BinInfo; installments: InstallmentOption[] }> {
  const card = await pageBinLookup(s, order.workspace, bin);
  const installments = await routedInstallments(s, order.workspace, {
    token: order.paymentAccountId,
    paths: { account: ORDER_PATHS.account, currency: ORDER_PATHS.currency },
    card,
    currency: order.currency,
    amount: order.amount,
    needs: ['secure'],
    quote: (account, charge) => pageInstallments(s, account, charge, card),
  });
  return { card, installments };
}

const ORDER_PATHS = { account: ['paymentProviderToken'], currency: ['currency'], installmentNumber: ['installmentNumber'] };

const payOrderInput = z.object({
  card: cardInput,
  installmentNumber: z.number({ error: 'invalid_integer' }).int({ error: 'invalid_integer' }).min(1, { error: 'installment_range' }).max(12, { error: 'installment_range' }),
  ip: z.string().nullish(),
});

export type PayOrderOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'failed'; code: string; text: string };

/**
 * The card form's POST. Validation problems throw ValidationError (the page shows them); a bank
 * refusal at the start comes back as `failed`; otherwise the customer goes to the 3D page.
 */
export async function payOrder(s: Services, order: CheckoutOrder, raw: unknown): Promise<PayOrderOutcome> {
  requireActive(order.workspace);
  if (order.status !== 'open') throw StateError.single([], 'order_already_paid');
  const input = parseInput(payOrderInput, raw);
  const attempt = await attemptPayment(s, {
    workspace: order.workspace,
    source: 'order',
    security: 'secure',
    channelId: order.channelId,
    channelReference: order.channelReference,
    amount: order.amount,
    currency: order.currency,
    installmentNumber: input.installmentNumber,
    pricing: 'quoted',
    card: await typedCard(s, order.workspace, input.card),
    accountToken: order.paymentAccountId,
    paths: ORDER_PATHS,
    callbackUrl: order.successUrl,
    ip: input.ip ?? null,
    shopper: shopperOf({ channelReference: order.customer.channelReference, firstname: order.customer.firstname, lastname: order.customer.lastname, email: order.customer.email, phone: order.customer.phone }),
    // What the order sells, priced as charged (VAT included); the attempt drops it when a surcharge changes the total.
    basket: order.items.map((item) => ({ id: item.channelReference, name: item.name, price: item.unitAmount * BigInt(item.quantity) })),
    claim: (tx, at) => claimOrder(tx, order, at),
    risk: { target: order.id },
  });
  if (attempt.successful && attempt.redirectUrl) return { kind: 'redirect', url: attempt.redirectUrl };
  return { kind: 'failed', code: attempt.failure?.code ?? 'internal_error', text: attempt.failure?.text ?? message('internal_error') };
}

/** The order's part of the attempt's write: still open, and no other attempt at the bank. */
async function claimOrder(tx: Tx, order: Order, now: Date): Promise<{ customerId: string; orderId: string }> {
  // One payment at a time per order: the row lock serialises two submits of the same order, and
  // the status is read under it, in the same statement.
  const [current] = await queryRows<Pick<Order, 'status'>>(tx, Prisma.sql`SELECT status FROM "Order" WHERE id = ${order.id}::uuid FOR UPDATE`);
  if (!current) throw new Error(`order ${order.id} not found`);
  if (current.status !== 'open') throw StateError.single([], 'order_already_paid');
  // An earlier attempt still waiting on its 3D page is replaced (its page stops working); one
  // already at the bank (page submitted, or its start still running) must finish first.
  await tx.payment.updateMany({
    where: { orderId: order.id, status: 'started', threeDsToken: { not: null } },
    data: { status: 'failed', threeDsToken: null, errorCode: 'order_payment_superseded', errorMessage: message('order_payment_superseded'), completedAt: now },
  });
  const busy = await tx.payment.count({
    where: { orderId: order.id, status: 'started', createdAt: { gt: new Date(now.getTime() - THREE_DS_WINDOW_MS) } },
  });
  if (busy > 0) throw StateError.single([], 'order_payment_in_progress');
  return { customerId: order.customerId, orderId: order.id };
}

/** The reason an attempt of this order failed, for the page the customer returns to. */
export async function failedAttempt(s: Services, order: Order, paymentId: string): Promise<{ code: string | null; text: string | null } | null> {
  if (!isUuid(paymentId)) return null;
  const p = await s.db.payment.findFirst({ where: { id: paymentId, orderId: order.id } });
  if (!p || p.status === 'successful' || p.status === 'started') return null;
  return { code: p.errorCode, text: p.errorMessage };
}
