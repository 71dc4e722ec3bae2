// What became of a refund or cancel whose answer was lost, read from iyzico's reporting API
// (v2/reporting/payment/details). The report lists the payment's cancels and, per basket item, its
// refund transactions, each under the conversationId it was asked with: the gateway's idempotency
// key. A v2 refund iyzico spread over several items is one refund transaction per item, all under
// that key. The report is not signed; it is read over the same authenticated connection.
import type { RefundStatusResult } from '../types.ts';
import { failureResult } from './answers.ts';
import type { PaymentReportAnswer, ReportedPayment, ReportedReversal } from './wire.ts';

/** refundStatus values (see ReportedReversal in wire.ts). */
const DONE = 1;
const REFUSED = 0;

/** Every refund transaction and cancel of the payment made under `key`. */
function reversalsUnder(payment: ReportedPayment, key: string): ReportedReversal[] {
  const cancels = (payment.cancels ?? []).filter((c) => c?.cancelConversationId === key);
  const refunds = (payment.itemTransactions ?? []).flatMap((item) => (item?.refunds ?? []).filter((r) => r?.refundConversationId === key));
  return [...cancels, ...refunds];
}

/**
 * The refund's or cancel's outcome: succeeded when every part of it is done (its reference is the
 * paymentId, as refund and cancel answer it), declined when every part was refused (the bank's
 * error mapped as a refund's), 'unknown' when the payment has none under that key (iyzico never
 * received it). 'retry' when the report cannot say: a failure answer, no such payment in it, a
 * status it does not define, or a refund done on some items and refused on others.
 */
export function reversalStatusResult(answer: PaymentReportAnswer, key: string, paymentId: string): RefundStatusResult | 'retry' {
  if (answer.status !== 'success') return 'retry';
  const payment = (answer.payments ?? []).find((p) => p?.paymentId !== undefined && String(p.paymentId) === paymentId);
  if (payment === undefined) return 'retry';
  const found = reversalsUnder(payment, key);
  if (found.length === 0) return { status: 'unknown' };
  if (found.every((r) => r.refundStatus === DONE)) return { status: 'succeeded', providerReference: paymentId };
  if (found.every((r) => r.refundStatus === REFUSED)) {
    const result = failureResult(found[0]!, 'refund');
    // A refund's refusal is always the bank's answer: a decline, whatever its code maps to.
    return { ...result, status: 'declined' };
  }
  return 'retry';
}
