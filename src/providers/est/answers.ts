// Reading EST's CC5Responses into the contract's results. ProcReturnCode "00" is approval; any
// other code is the bank's refusal or error (codes.ts). An answer that names another order than
// the one asked about is not this call's: null, and the connector treats it as no answer.
import type { Declined, PaymentStatusResult, ProviderFailure, RefundStatusResult, Succeeded } from '../types.ts';
import { fromMinorDigits } from './amount.ts';
import { paymentFailure, refundFailure, type EstFailureText } from './codes.ts';
import type { CC5Response } from './xml.ts';

const APPROVED = '00';

function failureText(answer: CC5Response): EstFailureText {
  const errorCode = answer.extra.ERRORCODE;
  return { procReturnCode: answer.fields.ProcReturnCode ?? '', errMsg: answer.fields.ErrMsg ?? '', ...(errorCode ? { errorCode } : {}) };
}

/** Whether the answer's OrderId, when it gives one, is the order asked about. */
function isAbout(answer: CC5Response, orderId: string): boolean {
  const named = answer.fields.OrderId;
  return named === undefined || named === '' || named === orderId;
}

/** An Auth (charge or 3D completion): the order id is the payment's provider reference. */
export function paymentResult(answer: CC5Response, orderId: string): Succeeded | Declined | ProviderFailure | null {
  const code = answer.fields.ProcReturnCode;
  if (code === undefined || code === '') return null;
  if (code !== APPROVED) return paymentFailure(failureText(answer));
  return isAbout(answer, orderId) && answer.fields.OrderId ? { status: 'succeeded', providerReference: orderId } : null;
}

/** A Credit or Void: the bank's TransId of the refund names it for support. */
export function refundResult(answer: CC5Response, orderId: string): Succeeded | Declined | null {
  const code = answer.fields.ProcReturnCode;
  if (code === undefined || code === '') return null;
  if (code !== APPROVED) return refundFailure(failureText(answer));
  if (!isAbout(answer, orderId)) return null;
  return { status: 'succeeded', providerReference: answer.fields.TransId || orderId };
}

/** The 3D Pay charge as the verified callback reported it (callback.ts kept these fields). */
export function threeDPayResult(data: Readonly<Record<string, string>>, orderId: string): Succeeded | Declined | ProviderFailure {
  const code = data.ProcReturnCode ?? '';
  if (code === APPROVED) return { status: 'succeeded', providerReference: orderId };
  const errorCode = data.EXTRA_ERRORCODE || data.ErrCode || data.ErrorCode;
  return paymentFailure({ procReturnCode: code, errMsg: data.ErrMsg ?? '', ...(errorCode ? { errorCode } : {}) });
}

/** "No record found for <oid>" (EST's English) or "Kayıt bulunamadı": the bank never saw the order. */
const NO_RECORD = /no record found|kay[ıi]t bulunamad/i;

/** 'retry': the answer cannot say (another order, an error of the bank's, a state in motion). */
export type StatusReading<R> = R | 'retry';

/** The order's latest transaction, as ORDERSTATUS reports it (Extra; mewebstudio's mapStatusResponse). */
interface OrderRecord {
  chargeType: string;
  transStat: string;
  amount: bigint | null;
  procRetCd: string;
}

function orderRecord(answer: CC5Response, orderId: string): OrderRecord | 'none' | 'retry' {
  const code = answer.fields.ProcReturnCode;
  if (code !== APPROVED) return NO_RECORD.test(answer.fields.ErrMsg ?? '') ? 'none' : 'retry';
  const named = answer.extra.ORD_ID || answer.fields.OrderId;
  if (named !== orderId) return 'retry';
  return {
    chargeType: answer.extra.CHARGE_TYPE_CD ?? '',
    transStat: answer.extra.TRANS_STAT ?? '',
    amount: fromMinorDigits(answer.extra.ORIG_TRANS_AMT),
    procRetCd: answer.extra.PROC_RET_CD ?? '',
  };
}

/** Sale states: A authorised, C captured (closed), S sale; D and ERR failed; PN pending; V / CNCL voided. */
const SOLD = new Set(['A', 'C', 'S']);
const FAILED = new Set(['D', 'ERR']);
const VOIDED = new Set(['V', 'CNCL']);

/**
 * What became of a payment whose answer was lost. A sale of another amount is not this payment's
 * (retry). A credit on the order means a sale was made before it. A sale the bank voided by itself
 * (the gateway never voids a payment it has not recorded) took no money: declined.
 */
export function paymentStatusResult(answer: CC5Response, orderId: string, amount: bigint): StatusReading<PaymentStatusResult> {
  const record = orderRecord(answer, orderId);
  if (record === 'none') return { status: 'unknown' };
  if (record === 'retry') return 'retry';
  if (record.chargeType === 'C') return { status: 'succeeded', providerReference: orderId };
  if (record.chargeType !== 'S') return 'retry';
  if (record.transStat === 'PN') return { status: 'unknown' };
  if (SOLD.has(record.transStat)) return record.amount === amount ? { status: 'succeeded', providerReference: orderId } : 'retry';
  if (FAILED.has(record.transStat)) {
    const failure = paymentFailure({ procReturnCode: record.procRetCd, errMsg: answer.fields.ErrMsg ?? '' });
    return failure.status === 'declined' ? failure : { status: 'declined', code: failure.code, message: failure.message, ...(failure.providerCode ? { providerCode: failure.providerCode } : {}) };
  }
  if (VOIDED.has(record.transStat)) {
    return { status: 'declined', code: 'provider_error', message: 'The bank voided the sale', providerCode: `TRANS_STAT:${record.transStat}` };
  }
  return 'retry';
}

/**
 * What became of a lost refund or cancel. ORDERSTATUS reports only the order's latest transaction:
 * a voided sale confirms a cancel; a credit cannot be told from another refund of the same order
 * (EST keeps no id of ours for it), so a refund is never confirmed here and nothing is ever
 * reported as 'unknown' (a refund sent again could be paid twice): retry until the gateway's deadline.
 */
export function refundStatusResult(answer: CC5Response, orderId: string, idempotencyKey: string): StatusReading<RefundStatusResult> {
  const record = orderRecord(answer, orderId);
  if (record === 'none' || record === 'retry') return 'retry';
  if (idempotencyKey.startsWith('cancel:') && record.chargeType === 'S' && VOIDED.has(record.transStat)) {
    return { status: 'succeeded', providerReference: answer.fields.TransId || orderId };
  }
  return 'retry';
}
