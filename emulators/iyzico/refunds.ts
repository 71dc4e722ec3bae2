import { responseSignature } from './auth.ts';
import { str, type ApiContext } from './api.ts';
import { ERRORS, IyziFailure } from './errors.ts';
import { toAmount, toMinor } from './money.ts';
import type { ItemTransaction, Payment, ReversalOutcome } from './state.ts';

/** Refused before the bank is asked: nothing is recorded (reporting does not list it). */
function refuseCancelled(payment: Payment): void {
  if (payment.cancelled) throw new IyziFailure(ERRORS.alreadyCancelled);
}

/** The bank's answer to a reversal (refund or cancel) of this payment; the special test card refuses them all. */
function bankOutcome(payment: Payment): ReversalOutcome {
  if (payment.outcome.kind !== 'approveNoReversal') return { status: 'SUCCESS' };
  const { errorCode, errorMessage, errorGroup } = ERRORS.reversalRefused;
  return { status: 'FAILURE', errorCode, errorMessage, ...(errorGroup ? { errorGroup } : {}) };
}

function refusedByBank(): never {
  throw new IyziFailure(ERRORS.reversalRefused);
}

/** Refunds `price` of one item, recording the refund transaction (failed ones too, as reporting lists them). */
function refundItem(ctx: ApiContext, payment: Payment, item: ItemTransaction, price: number, outcome: ReversalOutcome): void {
  if (outcome.status === 'SUCCESS') item.refunded += price;
  ctx.state.refunds.push({
    refundTxId: ctx.state.newId(),
    paymentId: payment.paymentId,
    paymentTransactionId: item.paymentTransactionId,
    conversationId: str(ctx.body.conversationId),
    price,
    outcome,
    at: Date.now(),
  });
}

function requestedPrice(ctx: ApiContext): number {
  const price = toMinor(ctx.body.price, 'price');
  if (price <= 0) throw new IyziFailure(ERRORS.invalidField('price'));
  return price;
}

function checkCurrency(ctx: ApiContext, payment: Payment): void {
  if (str(ctx.body.currency) && ctx.body.currency !== payment.currency) throw new IyziFailure(ERRORS.invalidField('currency'));
}

/** The refund answer's shared fields, signed over paymentId, price, currency, conversationId. */
function refundBody(ctx: ApiContext, payment: Payment, price: number): Record<string, unknown> {
  return {
    paymentId: payment.paymentId,
    price: toAmount(price),
    currency: payment.currency,
    authCode: payment.authCode,
    hostReference: payment.hostReference,
    refundHostReference: payment.hostReference,
    retryable: false,
    signature: responseSignature(ctx.secretKey, [payment.paymentId, toAmount(price), payment.currency, str(ctx.body.conversationId)]),
  };
}

/** POST /payment/refund — refunds part or all of one item transaction (paymentTransactionId). */
export function refund(ctx: ApiContext): Record<string, unknown> {
  if (!str(ctx.body.paymentTransactionId)) throw new IyziFailure(ERRORS.required('paymentTransactionId'));
  const price = requestedPrice(ctx);
  const { payment, item } = ctx.state.transaction(ctx.body.paymentTransactionId);
  checkCurrency(ctx, payment);
  refuseCancelled(payment);
  if (item.refunded + price > item.paidPrice) throw new IyziFailure(ERRORS.refundExceeds);
  const outcome = bankOutcome(payment);
  refundItem(ctx, payment, item, price, outcome);
  if (outcome.status === 'FAILURE') refusedByBank();
  return { ...refundBody(ctx, payment, price), paymentTransactionId: item.paymentTransactionId };
}

/**
 * POST /v2/payment/refund — refunds `price` of a whole payment (paymentId). iyzico picks the
 * items itself; the emulator takes them in basket order, each up to what it still has, so one
 * refund may become several item refunds, all under the request's conversationId.
 */
export function refundV2(ctx: ApiContext): Record<string, unknown> {
  if (!str(ctx.body.paymentId)) throw new IyziFailure(ERRORS.required('paymentId'));
  const price = requestedPrice(ctx);
  const payment = ctx.state.payment(ctx.body.paymentId);
  if (payment.status !== 'SUCCESS') throw new IyziFailure(ERRORS.paymentNotFound);
  checkCurrency(ctx, payment);
  refuseCancelled(payment);
  const remaining = payment.items.reduce((sum, item) => sum + item.paidPrice - item.refunded, 0);
  if (price > remaining) throw new IyziFailure(ERRORS.refundExceeds);
  const outcome = bankOutcome(payment);
  let left = price;
  for (const item of payment.items) {
    const share = Math.min(left, item.paidPrice - item.refunded);
    if (share <= 0) continue;
    refundItem(ctx, payment, item, share, outcome);
    left -= share;
    if (left === 0) break;
  }
  if (outcome.status === 'FAILURE') refusedByBank();
  return refundBody(ctx, payment, price);
}

/** POST /payment/cancel — voids a whole successful payment that has no refunds yet. */
export function cancel(ctx: ApiContext): Record<string, unknown> {
  const payment = ctx.state.payment(str(ctx.body.paymentId));
  if (payment.status !== 'SUCCESS') throw new IyziFailure(ERRORS.paymentNotFound);
  refuseCancelled(payment);
  if (payment.items.some((item) => item.refunded > 0)) throw new IyziFailure(ERRORS.reversalRefused);
  const outcome = bankOutcome(payment);
  if (outcome.status === 'SUCCESS') payment.cancelled = true;
  ctx.state.cancels.push({
    refundId: ctx.state.newId(),
    paymentId: payment.paymentId,
    conversationId: str(ctx.body.conversationId),
    price: payment.paidPrice,
    outcome,
    at: Date.now(),
  });
  if (outcome.status === 'FAILURE') refusedByBank();
  return {
    paymentId: payment.paymentId,
    price: toAmount(payment.paidPrice),
    currency: payment.currency,
    authCode: payment.authCode,
    hostReference: payment.hostReference,
  };
}
