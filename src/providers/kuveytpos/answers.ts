// Reading KuveytPOS's answers into the contract's results (mewebstudio/pos
// KuveytPosResponseDataMapper reads the same fields). ResponseCode decides: "00" approved, anything
// else a refusal (codes.ts). An answer without a ResponseCode, of the wrong kind, about another
// order, or an approved sale whose HashData does not check, is not an answer to this call: null
// or 'retry', and the connector treats it as no answer (ProviderTimeoutError), so the gateway asks
// the order inquiry later instead of guessing.
import type { Reading } from '../bank-pos/connector.ts';
import type { BankCredit, BankOrderHistory, LostReversalVerdict } from '../lost-refund.ts';
import type { Declined, PaymentStatusResult, ProviderFailure, RefundStatusInput, RefundStatusResult, Succeeded } from '../types.ts';
import { APPROVED, paymentFailure, reversalFailure } from './codes.ts';
import { saleAnswerHash, sameHash } from './hash.ts';
import { saleRef } from './references.ts';
import { minorOfDecimal, shortCurrency } from './requests.ts';
import type { KuveytAnswer } from './xml.ts';

type Fields = Readonly<Record<string, string>>;

/** The order as every later call must name it: ours, the bank's, and the amount and currency charged. */
export interface ExpectedSale {
  merchantOrderId: string;
  amount: bigint;
  /** Three digits ("949"). */
  currency: string;
}

const isOrderId = (id: string | undefined): id is string => id !== undefined && /^\d{1,20}$/.test(id) && id !== '0';

/** A sale's or provision's answer: approved only when signed with the account's password. */
export function saleResult(answer: KuveytAnswer, expected: ExpectedSale, password: string): Succeeded | Declined | ProviderFailure | null {
  if (answer.kind !== 'contract') return null;
  const f = answer.fields;
  const code = f.ResponseCode ?? '';
  if (code === '' || (f.MerchantOrderId !== undefined && f.MerchantOrderId !== '' && f.MerchantOrderId !== expected.merchantOrderId)) return null;
  if (code !== APPROVED) return paymentFailure({ code, ...(f.ResponseMessage ? { message: f.ResponseMessage } : {}) });
  if (!sameHash(saleAnswerHash(f, password), f.HashData) || !isOrderId(f.OrderId)) return null;
  const reference = saleRef({ ...expected, orderId: f.OrderId, rrn: f.RRN ?? '', stan: f.Stan ?? '', provision: f.ProvisionNumber ?? '' });
  return { status: 'succeeded', providerReference: reference };
}

/** A refund's or cancel's SOAP answer: the reference is the order id and the bank's RRN for it. */
export function reversalResult(answer: KuveytAnswer, merchantOrderId: string): Succeeded | Declined | ProviderFailure | null {
  if (answer.kind !== 'soap') return null;
  const { value, errors } = answer.result;
  const code = value.ResponseCode ?? '';
  if (code === '' || (value.MerchantOrderId !== undefined && value.MerchantOrderId !== '' && value.MerchantOrderId !== merchantOrderId)) return null;
  if (code === APPROVED) return { status: 'succeeded', providerReference: value.RRN ? `${merchantOrderId}:${value.RRN}` : merchantOrderId };
  const first = errors[0];
  return reversalFailure({ code: first?.code || code, message: first?.message || value.ResponseMessage || '' });
}

/** The inquiry's orders of our MerchantOrderId; 'retry' when the bank answered with an error or not at all. */
function ordersOf(answer: KuveytAnswer, merchantOrderId: string): Reading<Fields[]> {
  if (answer.kind !== 'soap' || answer.operation !== 'GetMerchantOrderDetail' || answer.result.errors.length > 0) return 'retry';
  return answer.result.orders.filter((o) => o.MerchantOrderId === merchantOrderId);
}

/** A sale the bank made: approved, and a sale from the start (OrderStatus 1), whatever became of it since. */
const isSale = (o: Fields): boolean => o.ResponseCode === APPROVED && o.OrderStatus === '1';

/**
 * A payment whose answer was lost (mapStatusResponse): the order's sale approved for the payment's
 * amount and currency is a success, whatever happened to it since; an order refused is the
 * payment's refusal; no order at all is one the bank never received (`unknown`). 'retry': the
 * answer cannot say (an error, another amount, an order neither sold nor refused).
 */
export function statusResult(answer: KuveytAnswer, expected: ExpectedSale): Reading<PaymentStatusResult> {
  const orders = ordersOf(answer, expected.merchantOrderId);
  if (orders === 'retry') return 'retry';
  if (orders.length === 0) return { status: 'unknown' };
  const sale = orders.find(isSale);
  if (sale !== undefined) {
    const amount = minorOfDecimal(sale.FirstAmount ?? '');
    if (amount !== expected.amount || shortCurrency(sale.FEC ?? '') !== expected.currency || !isOrderId(sale.OrderId)) return 'retry';
    const reference = saleRef({ ...expected, orderId: sale.OrderId, rrn: sale.RRN ?? '', stan: sale.Stan ?? '', provision: sale.ProvNumber ?? '' });
    return { status: 'succeeded', providerReference: reference };
  }
  const refused = orders.filter((o) => (o.ResponseCode ?? APPROVED) !== APPROVED).at(-1);
  if (refused === undefined) return 'retry';
  return { ...paymentFailure({ code: refused.ResponseCode!, ...(refused.ResponseExplain ? { message: refused.ResponseExplain } : {}) }), status: 'declined' } as Declined;
}

/**
 * The order as the lost-refund rule (../lost-refund.ts) reads a history. KuveytPOS lists no
 * credits, only the total refunded (DrawbackAmount) and cancelled (CancelAmount, LastOrderStatus
 * 6): the gateway's own succeeded refunds are taken out of the total and what is left is one
 * approved credit. A total smaller than those refunds is not a history the rule can read (retry).
 * No refused credit is listed either, so a lost refund the bank refused reads as one it never
 * received: no money moved either way.
 */
export function historyOf(answer: KuveytAnswer, merchantOrderId: string, input: RefundStatusInput): Reading<BankOrderHistory> {
  const orders = ordersOf(answer, merchantOrderId);
  const sale = orders === 'retry' ? undefined : orders.find(isSale);
  const refunded = minorOfDecimal(sale?.DrawbackAmount || '0');
  const cancelled = minorOfDecimal(sale?.CancelAmount || '0');
  if (sale === undefined || refunded === null || cancelled === null) return 'retry';
  const credit = (amount: bigint): BankCredit => ({ amount, state: 'approved', code: APPROVED, reference: '' });
  const succeeded = (input.otherRefunds ?? []).filter((o) => o.status === 'succeeded').map((o) => o.amount);
  const left = succeeded.reduce((rest, amount) => rest - amount, refunded);
  if (left < 0n) return 'retry';
  const voided = sale.LastOrderStatus === '6' || cancelled > 0n;
  return { credits: [...succeeded.map(credit), ...(left > 0n ? [credit(left)] : [])], sale: voided ? 'voided' : 'standing', complete: true };
}

/** The lost refund's or cancel's verdict as the contract's result; the reference is the order id (the inquiry names no credit). */
export function refundStatusOf(verdict: LostReversalVerdict, merchantOrderId: string): Reading<RefundStatusResult> {
  if (verdict.kind === 'succeeded') return { status: 'succeeded', providerReference: verdict.reference || merchantOrderId };
  if (verdict.kind === 'unknown') return { status: 'unknown' };
  if (verdict.kind === 'declined') return reversalFailure({ code: verdict.credit.code }) as Declined;
  return 'retry';
}
