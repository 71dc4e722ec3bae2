// Reading GVP's answers (<GVPSResponse>) into the contract's results. Transaction/Response/Code
// decides: "00" approved, anything else a refusal (codes.ts). An answer without a Code, or about
// another order than the one asked, is not an answer to this call: null, and the connector treats
// it as no answer (ProviderTimeoutError) so the gateway asks again later instead of guessing.
import type { Currency, Declined, PaymentStatusResult, ProviderFailure, Succeeded } from '../types.ts';
import { APPROVED, paymentFailure, reversalFailure, type GarantiSaid } from './codes.ts';
import { formatPaymentRef } from './references.ts';
import { textAt, type XmlTree } from './xml.ts';

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
