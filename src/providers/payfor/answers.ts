// Reading PayFor's answers into the contract's results (mewebstudio/pos PayForPosResponseDataMapper
// reads the same fields). ProcReturnCode decides: "00" approved, anything else a refusal
// (codes.ts). An answer without a ProcReturnCode, of the wrong kind, or about another order than
// the one asked, is not an answer to this call: null or 'retry', and the connector treats it as
// no answer (ProviderTimeoutError) so the gateway asks again later instead of guessing.
import type { BankCredit, BankOrderHistory, LostReversalVerdict } from '../lost-refund.ts';
import type { Declined, PaymentStatusResult, ProviderFailure, RefundStatusResult, Succeeded } from '../types.ts';
import { APPROVED, NOT_FOUND, paymentFailure, reversalFailure, type PayforSaid } from './codes.ts';
import { formatRef } from './references.ts';
import { minorOf } from './requests.ts';
import type { PayforAnswer, PayforFields } from './xml.ts';

const saidOf = (fields: PayforFields): PayforSaid => ({ code: fields.ProcReturnCode ?? '', ...(fields.ErrMsg ? { message: fields.ErrMsg } : {}) });

/** The answer's fields when it is a PayforResponse with a code and about this order (TransId and OrderId, when given, name it). */
function responseAbout(answer: PayforAnswer, orderId: string): PayforFields | null {
  if (answer.kind !== 'response') return null;
  const { fields } = answer;
  if ((fields.ProcReturnCode ?? '') === '') return null;
  const named = [fields.TransId, fields.OrderId].filter((v): v is string => v !== undefined && v !== '');
  return named.every((v) => v === orderId) ? fields : null;
}

/** A sale's answer (plain or 3D): the payment's reference is the order id every later call names. */
export function saleResult(answer: PayforAnswer, orderId: string): Succeeded | Declined | ProviderFailure | null {
  const fields = responseAbout(answer, orderId);
  if (fields === null) return null;
  if (fields.ProcReturnCode !== APPROVED) return paymentFailure(saidOf(fields));
  return { status: 'succeeded', providerReference: orderId };
}

/** A refund's or void's answer: the reference is the order id and the bank's HostRefNum when it gives one. */
export function reversalResult(answer: PayforAnswer, orderId: string): Succeeded | Declined | ProviderFailure | null {
  const fields = responseAbout(answer, orderId);
  if (fields === null) return null;
  if (fields.ProcReturnCode !== APPROVED) return reversalFailure(saidOf(fields));
  return { status: 'succeeded', providerReference: formatRef(orderId, fields.HostRefNum) };
}

/** Sale types the inquiry may name (mewebstudio counts PostAuth as the capture of a PreAuth). */
const SALE_TYPES = new Set(['Auth', 'PostAuth']);

/**
 * The order inquiry's answer for a payment whose answer was lost (mapStatusResponse): the order's
 * sale approved for the payment's amount is a success, whatever happened to it since; the sale
 * refused is the payment's refusal; V013 (no such order) is `unknown`. 'retry': the answer cannot
 * say (another amount, an inquiry refused for another reason).
 */
export function statusResult(answer: PayforAnswer, expected: { orderId: string; amount: bigint }): PaymentStatusResult | 'retry' {
  if (answer.kind !== 'response') return 'retry';
  const { fields } = answer;
  const code = fields.ProcReturnCode ?? '';
  const orderId = fields.OrderId ?? '';
  if (code === '' || (orderId !== '' && orderId !== expected.orderId)) return 'retry';
  if (code === NOT_FOUND) return { status: 'unknown' };
  if (!SALE_TYPES.has(fields.TxnType ?? '')) return 'retry';
  if (code !== APPROVED) return { ...paymentFailure(saidOf(fields)), status: 'declined' };
  return minorOf(fields.PurchAmount ?? '') === expected.amount ? { status: 'succeeded', providerReference: expected.orderId } : 'retry';
}

/** One <PaymentRequest> of the history report, in the terms the lost-refund rule needs. */
interface HistoryTxn {
  type: string;
  approved: boolean;
  code: string;
  amount: bigint;
  voided: boolean;
  hostRefNum: string;
}

const HISTORY_TYPES = new Set(['Auth', 'PostAuth', 'Refund', 'Void']);

function historyTxn(entry: PayforFields, orderId: string): HistoryTxn | null {
  const type = entry.TxnType ?? '';
  const code = entry.ProcReturnCode ?? '';
  const amount = minorOf(entry.PurchAmount ?? '');
  if (!HISTORY_TYPES.has(type) || code === '' || amount === null || entry.OrderId !== orderId) return null;
  return { type, approved: code === APPROVED, code, amount, voided: (entry.VoidDate ?? '') !== '', hostRefNum: entry.HostRefNum ?? '' };
}

/**
 * The history report as an order history (../lost-refund.ts): one entry per sale, refund and void.
 * PayFor gives no count, so the history is complete when every entry was read. A sale is voided
 * when its VoidDate is set, or when an approved void stands on an order without refunds (it can
 * only be the sale's). 'retry': another order's report, or an order PayFor says it does not have
 * (the gateway holds a reference for it, so it is at the bank).
 */
export function historyOf(answer: PayforAnswer, orderId: string): BankOrderHistory | 'retry' {
  if (answer.kind !== 'history' || answer.entries.length === 0) return 'retry';
  if (answer.entries.some((e) => e.ProcReturnCode === NOT_FOUND && e.TxnType === 'TxnHistory')) return 'retry';
  const txns = answer.entries.map((e) => historyTxn(e, orderId)).filter((t) => t !== null);
  const credits: BankCredit[] = txns
    .filter((t) => t.type === 'Refund')
    .map((t) => ({ amount: t.amount, state: !t.approved ? 'refused' : t.voided ? 'voided' : 'approved', code: t.code, reference: t.hostRefNum }));
  const sales = txns.filter((t) => SALE_TYPES.has(t.type) && t.approved);
  const voidOfSale = credits.length === 0 && txns.some((t) => t.type === 'Void' && t.approved);
  const sale = sales.length === 0 ? 'none' : sales.some((t) => t.voided) || voidOfSale ? 'voided' : 'standing';
  return { credits, sale, complete: txns.length === answer.entries.length };
}

/** The lost-refund rule's verdict as the contract's result ('retry': the connector keeps it open). */
export function refundStatusOf(verdict: LostReversalVerdict, orderId: string): RefundStatusResult | 'retry' {
  if (verdict.kind === 'succeeded') return { status: 'succeeded', providerReference: formatRef(orderId, verdict.reference) };
  if (verdict.kind === 'declined') return { ...reversalFailure({ code: verdict.credit.code }), status: 'declined' };
  return verdict.kind === 'unknown' ? { status: 'unknown' } : 'retry';
}
