// Reading InterPOS's answers into the contract's results, as mewebstudio/pos
// InterPosResponseDataMapper reads them (its vectors in test/interpos/answers.test.ts).
// ProcReturnCode decides: "00" approved, anything else a refusal (codes.ts). A sale's answer names
// the order (OrderId); a refund's, a void's and the status inquiry's name a system id of their own
// ("SYSOID..."), since those requests send no OrderId, only orgOrderId.
import type { BankCredit, BankOrderHistory, LostReversalVerdict } from '../lost-refund.ts';
import type { Reading } from '../bank-pos/connector.ts';
import type { Declined, PaymentStatusResult, ProviderFailure, RefundStatusInput, RefundStatusResult, Succeeded } from '../types.ts';
import { fromInterPosAmount } from './amount.ts';
import { APPROVED, isProviderError, paymentFailure, reversalFailure, type InterPosSaid } from './codes.ts';
import type { InterPosAnswer } from './wire.ts';

/** What InterPOS said; null when the answer has no ProcReturnCode. */
export function said(answer: InterPosAnswer): InterPosSaid | null {
  const code = answer.ProcReturnCode ?? '';
  if (code === '') return null;
  return { code, ...(answer.ErrorCode ? { errorCode: answer.ErrorCode } : {}), ...(answer.ErrorMessage ? { message: answer.ErrorMessage } : {}) };
}

/** A sale's answer (plain or 3D): null when it is about another order or says nothing. */
export function saleResult(answer: InterPosAnswer, orderId: string, reference: string): Succeeded | Declined | ProviderFailure | null {
  const s = said(answer);
  if (s === null || (answer.OrderId !== undefined && answer.OrderId !== '' && answer.OrderId !== orderId)) return null;
  return s.code === APPROVED ? { status: 'succeeded', providerReference: reference } : paymentFailure(s);
}

/** A refund's or void's answer: the reference is InterPOS's TransId of it (the order id when none). */
export function reversalResult(answer: InterPosAnswer, orderId: string): Succeeded | Declined | ProviderFailure | null {
  const s = said(answer);
  if (s === null) return null;
  return s.code === APPROVED ? { status: 'succeeded', providerReference: answer.TransId || orderId } : reversalFailure(s);
}

/** StatusHistory's VoidDate for a sale never voided (.NET's DateTime.MinValue). */
const NEVER = '1.1.0001 00:00:00';

/** What the StatusHistory answer says of the order's sale. */
export type OrderStatus =
  | { found: true; amount: bigint; refunded: bigint; voided: boolean; reference: string }
  | { found: false; refusal: InterPosSaid; transId: string };

/**
 * InterPOS's "no such transaction" to StatusHistory: E39 (mewebstudio/pos lists it as an invalid
 * transaction; it has no sample of an inquiry about an unknown order, so this reading is the
 * emulator's, and any other refusal naming no transaction is taken for one that cannot say).
 */
export const NO_SUCH_ORDER = 'E39';

/** The StatusHistory answer read; 'retry' when it cannot say (no code, amounts it does not write, InterPOS's own error). */
export function orderStatusOf(answer: InterPosAnswer): Reading<OrderStatus> {
  const s = said(answer);
  if (s === null) return 'retry';
  if (s.code !== APPROVED) {
    const transId = answer.TransId ?? '';
    if (transId === '') return s.code === NO_SUCH_ORDER ? { found: false, refusal: s, transId } : 'retry';
    return isProviderError(s.code) ? 'retry' : { found: false, refusal: s, transId };
  }
  const amount = fromInterPosAmount(answer.PurchAmount);
  const refunded = fromInterPosAmount(answer.RefundedAmount === undefined || answer.RefundedAmount === '' ? '0' : answer.RefundedAmount);
  if (amount === null || refunded === null) return 'retry';
  const voidDate = answer.VoidDate ?? '';
  return { found: true, amount, refunded, voided: voidDate !== '' && voidDate !== NEVER, reference: answer.TransId ?? '' };
}

/**
 * A payment whose answer was lost: an approved sale of the amount asked is a success; a refusal
 * with InterPOS's TransId is the sale's refusal; a refusal naming no transaction is an order
 * InterPOS never received (unknown). Another amount: not this payment, keep asking.
 */
export function paymentStatusOf(status: Reading<OrderStatus>, expected: { amount: bigint; reference: string }): Reading<PaymentStatusResult> {
  if (status === 'retry') return 'retry';
  if (!status.found) return status.transId === '' ? { status: 'unknown' } : (paymentFailure(status.refusal) as Declined);
  return status.amount === expected.amount ? { status: 'succeeded', providerReference: expected.reference } : 'retry';
}

/**
 * The order as the lost-refund rule (../lost-refund.ts) reads a history. InterPOS lists no credits,
 * only the total refunded (RefundedAmount): the gateway's own succeeded refunds are taken out of it,
 * and what is left is one approved credit. A total smaller than those refunds is not a history the
 * rule can read (retry). InterPOS lists no refused credit either, so a lost refund it refused reads
 * as one it never received: no money moved either way.
 */
export function historyOf(status: Reading<OrderStatus>, input: RefundStatusInput): Reading<BankOrderHistory> {
  if (status === 'retry' || !status.found) return 'retry';
  const credit = (amount: bigint): BankCredit => ({ amount, state: 'approved', code: APPROVED, reference: '' });
  const succeeded = (input.otherRefunds ?? []).filter((o) => o.status === 'succeeded').map((o) => o.amount);
  const left = succeeded.reduce((rest, amount) => rest - amount, status.refunded);
  if (left < 0n) return 'retry';
  return { credits: [...succeeded.map(credit), ...(left > 0n ? [credit(left)] : [])], sale: status.voided ? 'voided' : 'standing', complete: true };
}

/** The lost refund's or cancel's verdict as the contract's result; the reference is the order id when InterPOS gave none. */
export function refundStatusOf(verdict: LostReversalVerdict, orderId: string): Reading<RefundStatusResult> {
  if (verdict.kind === 'succeeded') return { status: 'succeeded', providerReference: verdict.reference || orderId };
  if (verdict.kind === 'unknown') return { status: 'unknown' };
  if (verdict.kind === 'declined') return reversalFailure({ code: verdict.credit.code }) as Declined;
  return 'retry';
}
