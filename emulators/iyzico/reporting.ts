import { itemAmounts } from './payments.ts';
import { str, type ApiContext } from './api.ts';
import { ERRORS, IyziFailure } from './errors.ts';
import { toAmount } from './money.ts';
import type { Cancel, ItemTransaction, Payment, PaymentStatus, Refund, ReversalOutcome } from './state.ts';

/** Reporting's numeric payment status (iyzico's table: FAILURE(0), SUCCESS(1), INIT_THREEDS(2), CALLBACK_THREEDS(3)). */
const PAYMENT_STATUS: Record<PaymentStatus, number> = { FAILURE: 0, SUCCESS: 1, INIT_THREEDS: 2, CALLBACK_THREEDS: 3 };

/** iyzico writes ids as JSON numbers in reports (Long in its Java client). */
const id = (value: string): number => Number(value);
const date = (at: number): string => new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A refund's or cancel's result as reporting shows it: refundStatus 1 done, 0 refused, with the bank's error. */
function outcomeFields(outcome: ReversalOutcome): Record<string, unknown> {
  if (outcome.status === 'SUCCESS') return { refundStatus: 1 };
  return { refundStatus: 0, errorCode: outcome.errorCode, errorMessage: outcome.errorMessage, ...(outcome.errorGroup ? { errorGroup: outcome.errorGroup } : {}) };
}

function refundEntry(payment: Payment, refund: Refund): Record<string, unknown> {
  return {
    refundTxId: id(refund.refundTxId),
    refundConversationId: refund.conversationId ?? null,
    refundPrice: toAmount(refund.price),
    ...outcomeFields(refund.outcome),
    isAfterSettlement: false,
    createdDate: date(refund.at),
    currencyCode: payment.currency,
    authCode: payment.authCode,
    hostReference: payment.hostReference,
  };
}

function cancelEntry(payment: Payment, cancel: Cancel): Record<string, unknown> {
  return {
    refundId: id(cancel.refundId),
    cancelConversationId: cancel.conversationId ?? null,
    refundPrice: toAmount(cancel.price),
    ...outcomeFields(cancel.outcome),
    isAfterSettlement: false,
    createdDate: date(cancel.at),
    currencyCode: payment.currency,
    authCode: payment.authCode,
    hostReference: payment.hostReference,
  };
}

function itemEntry(ctx: ApiContext, payment: Payment, item: ItemTransaction): Record<string, unknown> {
  return {
    ...itemAmounts(item),
    paymentTransactionId: id(item.paymentTransactionId),
    transactionStatus: payment.status === 'SUCCESS' ? 2 : 0,
    refunds: ctx.state.refunds.filter((r) => r.paymentTransactionId === item.paymentTransactionId).map((r) => refundEntry(payment, r)),
  };
}

function refundStatusOf(payment: Payment): string {
  const refunded = payment.items.reduce((sum, item) => sum + item.refunded, 0);
  if (refunded === 0) return 'NOT_REFUNDED';
  return refunded >= payment.paidPrice ? 'TOTALLY_REFUNDED' : 'PARTIALLY_REFUNDED';
}

function paymentEntry(ctx: ApiContext, payment: Payment): Record<string, unknown> {
  return {
    paymentId: id(payment.paymentId),
    paymentStatus: PAYMENT_STATUS[payment.status],
    paymentRefundStatus: refundStatusOf(payment),
    price: toAmount(payment.price),
    paidPrice: toAmount(payment.paidPrice),
    installment: payment.installment,
    merchantCommissionRate: 0,
    merchantCommissionRateAmount: 0,
    iyziCommissionRateAmount: Math.round(payment.paidPrice * 0.0299) / 100,
    iyziCommissionFee: 0.25,
    paymentConversationId: payment.conversationId ?? null,
    fraudStatus: 1,
    cardType: payment.card.cardType,
    cardAssociation: payment.card.cardAssociation,
    cardFamily: payment.card.cardFamily,
    binNumber: payment.card.binNumber,
    lastFourDigits: payment.card.lastFourDigits,
    basketId: payment.basketId ?? null,
    currency: payment.currency,
    connectorName: 'IYZI_POS',
    authCode: payment.authCode,
    threeDS: payment.threeDS,
    phase: 'AUTH',
    acquirerBankName: 'iyziPos',
    ...(payment.mdStatus === undefined ? {} : { mdStatus: Number(payment.mdStatus) }),
    hostReference: payment.hostReference,
    createdDate: date(payment.createdAt),
    cancels: ctx.state.cancels.filter((c) => c.paymentId === payment.paymentId).map((c) => cancelEntry(payment, c)),
    itemTransactions: payment.items.map((item) => itemEntry(ctx, payment, item)),
  };
}

/**
 * GET /v2/reporting/payment/details?paymentId=…|paymentConversationId=… — the payment (by id) or
 * every payment made under a conversationId, with their item transactions' refunds and their
 * cancels, each under the conversationId it was asked with. Unsigned, as iyzico's is.
 */
export function paymentDetails(ctx: ApiContext): Record<string, unknown> {
  const paymentId = str(ctx.query.get('paymentId'));
  const conversationId = str(ctx.query.get('paymentConversationId'));
  if (!paymentId && !conversationId) throw new IyziFailure(ERRORS.required('paymentId'));
  const payments = paymentId
    ? [ctx.state.payment(paymentId)].filter((p) => !conversationId || p.conversationId === conversationId)
    : ctx.state.paymentsByConversation(conversationId);
  if (payments.length === 0) throw new IyziFailure(ERRORS.paymentNotFound);
  return { payments: payments.map((p) => paymentEntry(ctx, p)) };
}
