// Reading PayFlex's answers into the contract's results (mewebstudio/pos
// PayFlexV4PosResponseDataMapper reads the same fields). ResultCode decides: "0000" approved,
// anything else a refusal (codes.ts). An answer without a ResultCode, of another kind, or about
// another order or transaction than the one asked, is not an answer to this call: null or 'retry',
// and the connector treats it as no answer (ProviderTimeoutError) so the gateway asks later.
import type { Declined, PaymentStatusResult, ProviderFailure, RefundStatusResult, Redirect, Succeeded } from '../types.ts';
import { APPROVED, enrollmentFailure, paymentFailure, reversalFailure, type PayflexSaid } from './codes.ts';
import { formatRef } from './references.ts';
import { minorOf } from './requests.ts';
import { childOf, listOf, textOf, type XmlNode } from './xml.ts';

export type PayflexAnswer = { root: string; node: XmlNode };

const saidOf = (node: XmlNode): PayflexSaid => ({ code: textOf(node, 'ResultCode'), message: textOf(node, 'ResultDetail') });

/** A VposResponse with a ResultCode; null otherwise. */
function vposResponse(answer: PayflexAnswer): XmlNode | null {
  return answer.root === 'VposResponse' && textOf(answer.node, 'ResultCode') !== '' ? answer.node : null;
}

/** A sale's answer (plain or 3-D): the reference names the order and the bank's TransactionId, which refunds and cancels need. */
export function saleResult(answer: PayflexAnswer, orderId: string): Succeeded | Declined | ProviderFailure | null {
  const node = vposResponse(answer);
  if (node === null) return null;
  const named = textOf(node, 'OrderId');
  if (named !== '' && named !== orderId) return null;
  if (textOf(node, 'ResultCode') !== APPROVED) return paymentFailure(saidOf(node));
  const transactionId = textOf(node, 'TransactionId');
  return transactionId === '' ? null : { status: 'succeeded', providerReference: formatRef(orderId, transactionId) };
}

/** A refund's or cancel's answer: about the sale asked (ReferenceTransactionId, when given). */
export function reversalResult(answer: PayflexAnswer, orderId: string, saleTransactionId: string): Succeeded | Declined | ProviderFailure | null {
  const node = vposResponse(answer);
  if (node === null) return null;
  const named = textOf(node, 'ReferenceTransactionId');
  if (named !== '' && named !== saleTransactionId) return null;
  if (textOf(node, 'ResultCode') !== APPROVED) return reversalFailure(saidOf(node));
  const transactionId = textOf(node, 'TransactionId');
  return transactionId === '' ? null : { status: 'succeeded', providerReference: formatRef(orderId, transactionId) };
}

/**
 * The MPI's enrollment answer: with VERes Status Y, the form the shopper's browser posts to the
 * card's ACS (PaReq, TermUrl, MD; no card data); otherwise the refusal. null: not an enrollment
 * answer, or one about another enrollment.
 */
export function enrollmentResult(answer: PayflexAnswer, enrollmentId: string): Redirect | Declined | ProviderFailure | null {
  if (answer.root !== 'IPaySecure') return null;
  const named = textOf(answer.node, 'VerifyEnrollmentRequestId');
  if (named !== '' && named !== enrollmentId) return null;
  const veres = childOf(childOf(answer.node, 'Message'), 'VERes');
  const status = textOf(veres, 'Status');
  const said = { code: textOf(answer.node, 'MessageErrorCode'), message: textOf(answer.node, 'ErrorMessage') };
  if (status !== 'Y') return status === '' && said.code === '' ? null : enrollmentFailure(status, said);
  const action = textOf(veres, 'ACSUrl');
  if (!/^https?:\/\//.test(action)) return null;
  return { kind: 'form', action, fields: { PaReq: textOf(veres, 'PaReq'), TermUrl: textOf(veres, 'TermUrl'), MD: textOf(veres, 'MD') } };
}

/** One transaction the search found. */
export interface FoundTxn {
  type: string;
  transactionId: string;
  orderId: string;
  code: string;
  message: string;
  amount: bigint | null;
}

/**
 * The search's answer: the transactions found (none: the bank has no such one). 'retry': the search
 * failed (ResponseInfo Status Error: a wrong merchant, the bank's trouble) or an item cannot be read.
 */
export function searchResult(answer: PayflexAnswer): FoundTxn[] | 'retry' {
  const info = childOf(answer.node, 'ResponseInfo');
  if (textOf(info, 'Status') !== 'Success' || textOf(info, 'ResponseCode') !== APPROVED) return 'retry';
  const items = listOf(childOf(answer.node, 'TransactionSearchResultInfo'), 'TransactionSearchResultInfo');
  if (items === null) return 'retry';
  const found = items.map((i) => ({
    type: textOf(i, 'TransactionType'),
    transactionId: textOf(i, 'TransactionId'),
    orderId: textOf(i, 'OrderId'),
    code: textOf(i, 'ResultCode'),
    message: textOf(i, 'ResponseMessage'),
    amount: minorOf(textOf(i, 'CurrencyAmount') || textOf(i, 'Amount')),
  }));
  return found.every((t) => t.type !== '' && t.code !== '' && t.transactionId !== '') ? found : 'retry';
}

/**
 * A payment whose answer was lost, from the search by its order id (mapStatusResponse): the
 * order's sale approved for the payment's amount is a success (whatever happened to it since),
 * refused is the payment's refusal, nothing found is `unknown`. 'retry': the answer cannot say.
 */
export function statusResult(found: FoundTxn[] | 'retry', expected: { orderId: string; amount: bigint }): PaymentStatusResult | 'retry' {
  if (found === 'retry') return 'retry';
  if (found.length === 0) return { status: 'unknown' };
  const sales = found.filter((t) => t.type === 'Sale' && t.orderId === expected.orderId);
  const sale = sales.find((t) => t.code === APPROVED) ?? sales.at(-1);
  if (sale === undefined) return 'retry';
  if (sale.code !== APPROVED) return { ...paymentFailure({ code: sale.code, message: sale.message }), status: 'declined' };
  return sale.amount === expected.amount ? { status: 'succeeded', providerReference: formatRef(expected.orderId, sale.transactionId) } : 'retry';
}

/**
 * A refund or cancel whose answer was lost, from the search by the TransactionId the gateway gave
 * it: found approved is succeeded, found refused declined, nothing found `unknown` (the bank never
 * got it). 'retry': another kind of transaction, or a refund for another amount.
 */
export function reversalStatus(found: FoundTxn[] | 'retry', expected: { orderId: string; transactionId: string; type: 'Refund' | 'Cancel'; amount?: bigint }): RefundStatusResult | 'retry' {
  if (found === 'retry') return 'retry';
  if (found.length === 0) return { status: 'unknown' };
  const txn = found.find((t) => t.transactionId === expected.transactionId);
  if (txn === undefined || txn.type !== expected.type) return 'retry';
  if (txn.code !== APPROVED) return { ...reversalFailure({ code: txn.code, message: txn.message }), status: 'declined' };
  if (expected.type === 'Refund' && expected.amount !== undefined && txn.amount !== expected.amount) return 'retry';
  return { status: 'succeeded', providerReference: formatRef(expected.orderId, txn.transactionId) };
}
