// Reading Akbank's answers into the contract's results (mewebstudio/pos
// AkbankPosResponseDataMapper reads the same fields). `responseCode` decides: "VPS-0000"
// approved, anything else a refusal (codes.ts). An answer without a responseCode, or about
// another order than the one asked, is not an answer to this call: null or 'retry', and the
// connector treats it as no answer (ProviderTimeoutError) so the gateway asks again later.
import type { BankCredit, BankOrderHistory, LostReversalVerdict } from '../lost-refund.ts';
import type { Declined, PaymentStatusResult, ProviderFailure, RefundStatusResult, Succeeded } from '../types.ts';
import { APPROVED, NOT_FOUND, paymentFailure, reversalFailure, type AkbankSaid } from './codes.ts';
import { objectAt, listAt, textAt, type AkbankAnswer } from './json.ts';
import { formatRef } from './references.ts';
import { minorOf, TXN } from './requests.ts';

/** What the answer (or one of its history entries) said. */
export const saidOf = (a: AkbankAnswer): AkbankSaid => {
  const hostCode = textAt(a, 'hostResponseCode');
  const message = textAt(a, 'hostMessage') || textAt(a, 'hostResponseMessage') || textAt(a, 'responseMessage');
  return { code: textAt(a, 'responseCode'), ...(hostCode ? { hostCode } : {}), ...(message ? { message } : {}) };
};

/** The answer when it has a code and is about this order (its order.orderId, when given, names it). */
function answerAbout(answer: AkbankAnswer, orderId: string): AkbankAnswer | null {
  if (textAt(answer, 'responseCode') === '') return null;
  const named = textAt(objectAt(answer, 'order'), 'orderId');
  return named === '' || named === orderId ? answer : null;
}

/** A sale's answer (plain or the 3D model's): the payment's reference is the order id every later call names. */
export function saleResult(answer: AkbankAnswer, orderId: string): Succeeded | Declined | ProviderFailure | null {
  const about = answerAbout(answer, orderId);
  if (about === null) return null;
  if (textAt(about, 'responseCode') !== APPROVED) return paymentFailure(saidOf(about));
  return { status: 'succeeded', providerReference: orderId };
}

/** A refund's or cancel's answer: the reference is the order id and the bank's rrn when it gives one. */
export function reversalResult(answer: AkbankAnswer, orderId: string): Succeeded | Declined | ProviderFailure | null {
  const about = answerAbout(answer, orderId);
  if (about === null) return null;
  if (textAt(about, 'responseCode') !== APPROVED) return reversalFailure(saidOf(about));
  return { status: 'succeeded', providerReference: formatRef(orderId, textAt(objectAt(about, 'transaction'), 'rrn')) };
}

/** One entry of txnDetailList, in the terms the inquiries need. */
interface HistoryTxn {
  txnCode: string;
  approved: boolean;
  said: AkbankSaid;
  amount: bigint;
  /** txnStatus "V" (İptal): cancelled since. */
  voided: boolean;
  rrn: string;
}

const SALE_CODES = new Set<string>([TXN.sale, TXN.threeDSale]);
const HISTORY_CODES = new Set<string>([TXN.sale, TXN.threeDSale, TXN.refund, TXN.cancel]);

function historyTxn(entry: AkbankAnswer, orderId: string): HistoryTxn | null {
  const txnCode = textAt(entry, 'txnCode');
  const code = textAt(entry, 'responseCode');
  const amount = minorOf(textAt(entry, 'amount'));
  const order = textAt(entry, 'orgOrderId') || textAt(entry, 'orderId');
  if (!HISTORY_CODES.has(txnCode) || code === '' || amount === null || order !== orderId) return null;
  return { txnCode, approved: code === APPROVED, said: saidOf(entry), amount, voided: textAt(entry, 'txnStatus') === 'V', rrn: textAt(entry, 'rrn') };
}

/** The order history's entries, or 'retry' when the answer is not the history of this order; 'not_found' for VPS-1123. */
function entriesOf(answer: AkbankAnswer, orderId: string): { txns: HistoryTxn[]; complete: boolean } | 'not_found' | 'retry' {
  const code = textAt(answer, 'responseCode');
  if (code === NOT_FOUND) return 'not_found';
  if (code !== APPROVED || textAt(answer, 'txnCode') !== TXN.orderHistory) return 'retry';
  const list = listAt(answer, 'txnDetailList');
  if (list === null || list.length === 0) return 'retry';
  const txns = list.map((e) => historyTxn(e, orderId)).filter((t) => t !== null);
  return { txns, complete: txns.length === list.length };
}

/**
 * The order history for a payment whose answer was lost (Akbank has no status inquiry: the order
 * history is it). The order's sale approved for the payment's amount is a success, whatever
 * happened to it since; a sale refused is the payment's refusal; VPS-1123 (no such order) is
 * `unknown`. 'retry': the answer cannot say (another amount, another order's list).
 */
export function statusResult(answer: AkbankAnswer, expected: { orderId: string; amount: bigint }): PaymentStatusResult | 'retry' {
  const read = entriesOf(answer, expected.orderId);
  if (read === 'not_found') return { status: 'unknown' };
  if (read === 'retry') return 'retry';
  const sales = read.txns.filter((t) => SALE_CODES.has(t.txnCode));
  const approved = sales.find((t) => t.approved);
  if (approved !== undefined) return approved.amount === expected.amount ? { status: 'succeeded', providerReference: expected.orderId } : 'retry';
  const refused = sales.at(-1);
  if (refused === undefined) return read.complete ? { status: 'unknown' } : 'retry';
  return { ...paymentFailure(refused.said), status: 'declined' };
}

/**
 * The order history as the lost-refund rule reads it (../lost-refund.ts): one credit per refund
 * entry (refused, approved, or cancelled since: txnStatus "V"); the sale voided when its own
 * txnStatus is "V" or an approved cancel stands on an order without refunds. Akbank gives no
 * count, so the history is complete when every entry was read. 'retry': not this order's
 * history, or an order Akbank says it does not have (the gateway holds a reference for it).
 */
export function historyOf(answer: AkbankAnswer, orderId: string): BankOrderHistory | 'retry' {
  const read = entriesOf(answer, orderId);
  if (read === 'not_found' || read === 'retry') return 'retry';
  const credits: BankCredit[] = read.txns
    .filter((t) => t.txnCode === TXN.refund)
    .map((t) => ({ amount: t.amount, state: !t.approved ? 'refused' : t.voided ? 'voided' : 'approved', code: t.said.code, reference: t.rrn === '0' ? '' : t.rrn }));
  const sales = read.txns.filter((t) => SALE_CODES.has(t.txnCode) && t.approved);
  const cancelOfSale = credits.length === 0 && read.txns.some((t) => t.txnCode === TXN.cancel && t.approved);
  const sale = sales.length === 0 ? 'none' : sales.some((t) => t.voided) || cancelOfSale ? 'voided' : 'standing';
  return { credits, sale, complete: read.complete };
}

/** The lost-refund rule's verdict as the contract's result ('retry': the connector keeps it open). */
export function refundStatusOf(verdict: LostReversalVerdict, orderId: string): RefundStatusResult | 'retry' {
  if (verdict.kind === 'succeeded') return { status: 'succeeded', providerReference: formatRef(orderId, verdict.reference) };
  if (verdict.kind === 'declined') return { ...reversalFailure({ code: verdict.credit.code }), status: 'declined' };
  return verdict.kind === 'unknown' ? { status: 'unknown' } : 'retry';
}
