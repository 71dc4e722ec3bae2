import { responseSignature } from './auth.ts';
import { str, type ApiContext } from './api.ts';
import { ERRORS, IyziFailure } from './errors.ts';
import { toAmount, toMinor } from './money.ts';
import type { Payment } from './state.ts';

function refuseReversal(payment: Payment): void {
  if (payment.cancelled) throw new IyziFailure(ERRORS.alreadyCancelled);
  if (payment.outcome.kind === 'approveNoReversal') throw new IyziFailure(ERRORS.reversalRefused);
}

/** POST /payment/refund — refunds part or all of one item transaction (paymentTransactionId). */
export function refund(ctx: ApiContext): Record<string, unknown> {
  if (!str(ctx.body.paymentTransactionId)) throw new IyziFailure(ERRORS.required('paymentTransactionId'));
  const price = toMinor(ctx.body.price, 'price');
  if (price <= 0) throw new IyziFailure(ERRORS.invalidField('price'));
  const { payment, item } = ctx.state.transaction(ctx.body.paymentTransactionId);
  if (str(ctx.body.currency) && ctx.body.currency !== payment.currency) throw new IyziFailure(ERRORS.invalidField('currency'));
  refuseReversal(payment);
  if (item.refunded + price > item.paidPrice) throw new IyziFailure(ERRORS.refundExceeds);
  item.refunded += price;
  ctx.state.refunds.push({ paymentId: payment.paymentId, paymentTransactionId: item.paymentTransactionId, price, at: Date.now() });
  return {
    paymentId: payment.paymentId,
    paymentTransactionId: item.paymentTransactionId,
    price: toAmount(price),
    currency: payment.currency,
    authCode: payment.authCode,
    hostReference: payment.hostReference,
    signature: responseSignature(ctx.secretKey, [payment.paymentId, toAmount(price), payment.currency, str(ctx.body.conversationId)]),
  };
}

/** POST /payment/cancel — voids a whole successful payment that has no refunds yet. */
export function cancel(ctx: ApiContext): Record<string, unknown> {
  const payment = ctx.state.payment(str(ctx.body.paymentId));
  if (payment.status !== 'SUCCESS') throw new IyziFailure(ERRORS.paymentNotFound);
  refuseReversal(payment);
  if (payment.items.some((item) => item.refunded > 0)) throw new IyziFailure(ERRORS.reversalRefused);
  payment.cancelled = true;
  ctx.state.cancels.push({ paymentId: payment.paymentId, at: Date.now() });
  return {
    paymentId: payment.paymentId,
    price: toAmount(payment.paidPrice),
    currency: payment.currency,
    authCode: payment.authCode,
    hostReference: payment.hostReference,
  };
}
