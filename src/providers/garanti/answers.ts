// Reading GVP's answers (<GVPSResponse>) into the contract's results. Transaction/Response/Code
// decides: "00" approved, anything else a refusal (codes.ts). An answer without a Code, or about
// another order than the one asked, is not an answer to this call: null, and the connector treats
// it as no answer (ProviderTimeoutError) so the gateway asks again later instead of guessing.
import type { Currency, Declined, PaymentStatusResult, ProviderFailure, RefundStatusResult, Succeeded } from '../types.ts';
import type { BankCredit, BankOrderHistory, LostReversalVerdict } from '../lost-refund.ts';
import { APPROVED, paymentFailure, reversalFailure, type GarantiSaid } from './codes.ts';
import { formatPaymentRef } from './references.ts';
import { listAt, textAt, type XmlTree } from './xml.ts';

/** What GVP said about the transaction, or null when the answer says nothing readable. */
export function transactionSaid(answer: XmlTree): (GarantiSaid & { orderId?: string; retrefNum?: string }) | null {
  const code = textAt(answer, 'Transaction', 'Response', 'Code');
  if (code === undefined || code === '') return null;
  const reasonCode = textAt(answer, 'Transaction', 'Response', 'ReasonCode');
  const message = [textAt(answer, 'Transaction', 'Response', 'ErrorMsg'), textAt(answer, 'Transaction', 'Response', 'Message')].find((m) => m !== undefined && m !== '');
  const orderId = textAt(answer, 'Order', 'OrderID');
  const retrefNum = textAt(answer, 'Transaction', 'RetrefNum');
  return {
    code,
    ...(reasonCode === undefined ? {} : { reasonCode }),
    ...(message === undefined ? {} : { message }),
    ...(orderId === undefined || orderId === '' ? {} : { orderId }),
    ...(retrefNum === undefined || retrefNum === '' ? {} : { retrefNum }),
  };
}

/** A sale's answer (plain or 3D): the reference is the order id and the sale's RetrefNum. */
export function saleResult(answer: XmlTree, orderId: string): Succeeded | Declined | ProviderFailure | null {
  const said = transactionSaid(answer);
  if (said === null || (said.orderId !== undefined && said.orderId !== orderId)) return null;
  if (said.code !== APPROVED) return paymentFailure(said);
  return { status: 'succeeded', providerReference: formatPaymentRef({ orderId, ...(said.retrefNum === undefined ? {} : { retrefNum: said.retrefNum }) }) };
}

/** A refund's or void's answer: the reference is the reversal's RetrefNum (or the order id when GVP gives none). */
export function reversalResult(answer: XmlTree, orderId: string): Succeeded | Declined | ProviderFailure | null {
  const said = transactionSaid(answer);
  if (said === null || (said.orderId !== undefined && said.orderId !== orderId)) return null;
  if (said.code !== APPROVED) return reversalFailure(said);
  return { status: 'succeeded', providerReference: formatPaymentRef({ orderId, ...(said.retrefNum === undefined ? {} : { retrefNum: said.retrefNum }) }) };
}

/** GVP's "no such transaction" (Code 92, ReasonCode 0110, "İşlem bulunamadı"). */
const NOT_FOUND_REASON = '0110';

/**
 * The order inquiry's answer for a payment whose answer was lost (mewebstudio's mapStatusResponse
 * reads the same fields): Order/OrderInqResult Status APPROVED with AuthAmount (minor units) equal
 * to the payment's is a success; a result Code other than 00 is the sale's refusal; an order GVP
 * does not know is `unknown`. 'retry': the answer cannot say (another amount, an inquiry refused
 * for another reason, an order still pending).
 */
export function orderInquiryResult(answer: XmlTree, expected: { orderId: string; amount: bigint; currency: Currency }): PaymentStatusResult | 'retry' {
  const said = transactionSaid(answer);
  if (said === null || (said.orderId !== undefined && said.orderId !== expected.orderId)) return 'retry';
  if (said.code !== APPROVED) return said.reasonCode === NOT_FOUND_REASON ? { status: 'unknown' } : 'retry';
  const status = textAt(answer, 'Order', 'OrderInqResult', 'Status') ?? '';
  const code = textAt(answer, 'Order', 'OrderInqResult', 'Code') ?? '';
  if (status === 'APPROVED') {
    const authAmount = textAt(answer, 'Order', 'OrderInqResult', 'AuthAmount') ?? '';
    if (!/^\d+$/.test(authAmount) || BigInt(authAmount) !== expected.amount) return 'retry';
    const retrefNum = textAt(answer, 'Order', 'OrderInqResult', 'RetrefNum') ?? '';
    return { status: 'succeeded', providerReference: formatPaymentRef({ orderId: expected.orderId, retrefNum }) };
  }
  if (code !== '' && code !== APPROVED) {
    const reasonCode = textAt(answer, 'Order', 'OrderInqResult', 'ReasonCode');
    const message = textAt(answer, 'Order', 'OrderInqResult', 'SysErrMsg');
    const failure = paymentFailure({ code, ...(reasonCode ? { reasonCode } : {}), ...(message ? { message } : {}) });
    // A sale that failed for GVP's own reasons is a decline all the same: no money moved.
    return { ...failure, status: 'declined' };
  }
  if (status === '' && code === '') return { status: 'unknown' };
  return 'retry';
}

/** One OrderTxn of orderhistoryinq (mewebstudio's mapSingleOrderHistoryTransaction reads the same fields). */
interface HistoryTxn {
  type: string;
  approved: boolean;
  /** ReturnCode, else Status: the host's answer ("92" where Status is "01"). */
  code: string;
  amount: bigint;
  voided: boolean;
  retrefNum: string;
}

const HISTORY_TYPES = new Set(['sales', 'refund', 'void']);

function historyTxn(entry: XmlTree): HistoryTxn | null {
  const type = textAt(entry, 'Type') ?? '';
  const status = textAt(entry, 'Status') ?? '';
  const amount = textAt(entry, 'AuthAmount') ?? '';
  if (!HISTORY_TYPES.has(type) || status === '' || !/^\d+$/.test(amount)) return null;
  const returnCode = textAt(entry, 'ReturnCode') ?? '';
  return { type, approved: status === APPROVED, code: returnCode || status, amount: BigInt(amount), voided: (textAt(entry, 'VoidDate') ?? '') !== '', retrefNum: textAt(entry, 'RetrefNum') ?? '' };
}

/**
 * orderhistoryinq's answer as an order history (lost-refund.ts): Order/OrderHistInqResult/
 * OrderTxnList/OrderTxn, one per sale, refund or void. GVP gives no count, so the history is
 * complete when every entry was read. A sale is voided when its VoidDate is set, or when an
 * approved void stands on an order without refunds (it can only be the sale's). 'retry': another
 * order, or an inquiry GVP refused (an order it does not know included: the gateway has a
 * reference for it, so it is at the bank).
 */
export function orderHistoryOf(answer: XmlTree, orderId: string): BankOrderHistory | 'retry' {
  const said = transactionSaid(answer);
  if (said === null || said.code !== APPROVED || (said.orderId !== undefined && said.orderId !== orderId)) return 'retry';
  const entries = listAt(answer, 'Order', 'OrderHistInqResult', 'OrderTxnList', 'OrderTxn');
  const txns = entries.map(historyTxn).filter((t) => t !== null);
  const credits: BankCredit[] = txns
    .filter((t) => t.type === 'refund')
    .map((t) => ({ amount: t.amount, state: !t.approved ? 'refused' : t.voided ? 'voided' : 'approved', code: t.code, reference: t.retrefNum }));
  const sales = txns.filter((t) => t.type === 'sales' && t.approved);
  const voidOfSale = credits.length === 0 && txns.some((t) => t.type === 'void' && t.approved);
  const sale = sales.length === 0 ? 'none' : sales.some((t) => t.voided) || voidOfSale ? 'voided' : 'standing';
  return { credits, sale, complete: txns.length === entries.length };
}

/** The lost-refund rule's verdict as the contract's result ('retry': the connector keeps it open). */
export function refundStatusOf(verdict: LostReversalVerdict, orderId: string): RefundStatusResult | 'retry' {
  if (verdict.kind === 'succeeded') return { status: 'succeeded', providerReference: formatPaymentRef({ orderId, retrefNum: verdict.reference }) };
  if (verdict.kind === 'declined') return { ...reversalFailure({ code: verdict.credit.code }), status: 'declined' };
  return verdict.kind === 'unknown' ? { status: 'unknown' } : 'retry';
}
