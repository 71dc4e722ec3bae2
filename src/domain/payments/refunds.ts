// refund-payment and cancel-payment. The amount is reserved under a row lock before the bank is
// asked, so parallel requests can never move more than the payment: the lock is held only for
// the check-and-reserve, not during the provider call.
import { commitAfterBank, readAfterBank } from '../../db/busy.ts';
import { z } from 'zod';
import { Prisma, type Payment, type Refund, type Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { ProviderTimeoutError, type Connector, type RefundResult } from '../../providers/types.ts';
import { paymentConnector } from '../accounts.ts';
import { providerSupports } from '../account-credentials.ts';
import { amount as amountField, parseInput, uuid } from '../validation.ts';
import { requireActive } from '../plans.ts';
import { NotFoundError, StateError, ValidationError } from '../errors.ts';
import { message } from '../messages.ts';
import type { Tx } from '../../db/client.ts';
import type { Currency } from '../money.ts';
import { chargedOf, loadPaymentView, type PaymentView } from './view.ts';
import { ownerOf } from './owners.ts';
import { queryRows } from '../../db/raw.ts';

export interface RefundOutcome {
  view: PaymentView;
  refund: { type: 'refund' | 'cancel'; amount: bigint; currency: Currency };
  successful: boolean;
  failure: { code: string; text: string } | null;
}

export const refundInput = z.object({
  transaction: z.object({ token: uuid() }, { error: 'required' }),
  amount: amountField().nullish(),
});
export const cancelInput = z.object({ transaction: z.object({ token: uuid() }, { error: 'required' }) });

const TOKEN = ['transaction', 'token'];

export async function refundPayment(s: Services, workspace: Workspace, raw: unknown): Promise<RefundOutcome> {
  requireActive(workspace);
  const input = parseInput(refundInput, raw);
  const reserved = await s.db.$transaction(async (tx) => {
    const p = await lockPayment(tx, workspace.id, input.transaction.token);
    if (p.status !== 'successful') throw StateError.single(TOKEN, 'only_successful_refundable');
    if (p.paymentStatus === 'cancelled') throw StateError.single(TOKEN, 'cancelled_not_refundable');
    const remainder = refundableAmount(p);
    if (remainder <= 0n) throw StateError.single(TOKEN, 'no_refundable_amount');
    await requireCapability(s, tx, p, 'refund');
    const amount = input.amount ?? remainder;
    if (amount <= 0n) throw ValidationError.single(['amount'], 'amount_positive');
    if (amount > remainder) throw ValidationError.single(['amount'], 'refund_exceeds');
    return reserve(tx, p, 'refund', amount, s.clock.now());
  });
  return askProvider(s, reserved, (provider, p, r) =>
    provider.refund({ idempotencyKey: `refund:${r.id}`, providerReference: p.providerReference ?? '', amount: r.amount, currency: chargedOf(p).currency }),
  );
}

/**
 * What is left to refund, in the charged currency: the charged amount less every refund and
 * cancel reserved so far (settled or still with the bank); nothing unless the payment succeeded
 * and was not cancelled. refund-payment refunds at most this, and the dashboard offers it.
 */
export function refundableAmount(p: Pick<Payment, 'status' | 'paymentStatus' | 'amount' | 'currency' | 'chargedAmount' | 'chargedCurrency' | 'refundedAmount'>): bigint {
  if (p.status !== 'successful' || p.paymentStatus === 'cancelled') return 0n;
  const left = chargedOf(p).amount - p.refundedAmount;
  return left > 0n ? left : 0n;
}

export async function cancelPayment(s: Services, workspace: Workspace, raw: unknown): Promise<RefundOutcome> {
  requireActive(workspace);
  const input = parseInput(cancelInput, raw);
  const reserved = await s.db.$transaction(async (tx) => {
    const p = await lockPayment(tx, workspace.id, input.transaction.token);
    if (p.status !== 'successful') throw StateError.single(TOKEN, 'only_successful_cancellable');
    if (p.paymentStatus === 'cancelled') throw StateError.single(TOKEN, 'already_cancelled');
    if (p.paymentStatus === 'refunded') throw StateError.single(TOKEN, 'refunded_not_cancellable');
    // A refund in flight counts as a refund: the payment is no longer whole.
    if (p.paymentStatus === 'partially_refunded' || p.refundedAmount > 0n) throw StateError.single(TOKEN, 'partially_refunded_not_cancellable');
    await requireCapability(s, tx, p, 'cancel');
    return reserve(tx, p, 'cancel', chargedOf(p).amount, s.clock.now());
  });
  return askProvider(s, reserved, (provider, p, r) => provider.cancel({ idempotencyKey: `cancel:${r.id}`, providerReference: p.providerReference ?? '' }));
}

async function lockPayment(tx: Tx, workspaceId: string, token: string): Promise<Payment> {
  const rows = await queryRows<{ id: string }>(tx, Prisma.sql`SELECT id FROM "Payment" WHERE id = ${token}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR UPDATE`);
  if (rows.length === 0) throw NotFoundError.single(TOKEN, 'payment_not_found');
  return tx.payment.findUniqueOrThrow({ where: { id: token } });
}

/** Switched on for the payment's account, and something its provider can do at all. */
async function requireCapability(s: Services, tx: Tx, p: Payment, what: 'refund' | 'cancel'): Promise<void> {
  const account = p.paymentAccountId ? await tx.paymentAccount.findUnique({ where: { id: p.paymentAccountId } }) : null;
  if (!account || !providerSupports(s.providers, account, what)) {
    throw StateError.single(TOKEN, what === 'refund' ? 'account_no_refund' : 'account_no_cancel');
  }
}

interface Reserved {
  payment: Payment;
  refund: Refund;
}

async function reserve(tx: Tx, p: Payment, type: 'refund' | 'cancel', amount: bigint, at: Date): Promise<Reserved> {
  const payment = await tx.payment.update({ where: { id: p.id }, data: { refundedAmount: { increment: amount } } });
  const refund = await tx.refund.create({ data: { paymentId: p.id, type, status: 'pending', amount, createdAt: at } });
  return { payment, refund };
}

type Ask = (provider: Connector, p: Payment, r: Refund) => Promise<RefundResult>;

/**
 * Records the bank's answer to a reserved refund or cancel under the payment's row lock: done
 * (the payment's money status and the owner's refund or cancel event), or refused (the reserved
 * amount released). The request that asked and the interrupted-refund sweep both end here.
 */
export async function recordRefundAnswer(tx: Tx, s: Services, payment: Payment, refund: Refund, res: RefundResult, now: Date): Promise<void> {
  await queryRows(tx, Prisma.sql`SELECT id FROM "Payment" WHERE id = ${payment.id}::uuid FOR UPDATE`);
  if (res.status === 'succeeded') {
    await tx.refund.update({ where: { id: refund.id }, data: { status: 'succeeded', providerReference: res.providerReference } });
    // Counted from settled refunds only: another reservation in flight may still fail.
    const settled = await tx.refund.aggregate({ where: { paymentId: payment.id, status: 'succeeded' }, _sum: { amount: true } });
    const whole = (settled._sum.amount ?? 0n) >= chargedOf(payment).amount;
    const paymentStatus = refund.type === 'cancel' ? 'cancelled' : whole ? 'refunded' : 'partially_refunded';
    const updated = await tx.payment.update({ where: { id: payment.id }, data: { paymentStatus } });
    // Refund and cancel events go to the record that owns the payment (an order, a link...).
    await ownerOf(s.owners, updated).moneyReturned(tx, updated, refund.type === 'cancel' ? 'cancelled' : 'refunded', now);
  } else {
    await tx.refund.update({ where: { id: refund.id }, data: { status: 'failed', errorCode: res.code, errorMessage: res.message } });
    await tx.payment.update({ where: { id: payment.id }, data: { refundedAmount: { decrement: refund.amount } } });
  }
}

async function askProvider(s: Services, { payment, refund }: Reserved, ask: Ask): Promise<RefundOutcome> {
  const provider = await paymentConnector(s, payment);
  const outcome = { type: refund.type, amount: refund.amount, currency: chargedOf(payment).currency };
  let res: RefundResult;
  try {
    res = await ask(provider, payment, refund);
  } catch (err) {
    if (!(err instanceof ProviderTimeoutError)) throw err;
    // Unknown whether the bank moved the money: the reservation stays until reconciled.
    return { view: await readAfterBank(() => loadPaymentView(s.db, payment.id)), refund: outcome, successful: false, failure: { code: 'provider_timeout_refund', text: message('provider_timeout_refund') } };
  }
  const now = s.clock.now();
  await commitAfterBank(s.db, (tx) => recordRefundAnswer(tx, s, payment, refund, res, now));
  const view = await readAfterBank(() => loadPaymentView(s.db, payment.id));
  if (res.status === 'succeeded') return { view, refund: outcome, successful: true, failure: null };
  return { view, refund: outcome, successful: false, failure: { code: res.code, text: res.message } };
}
