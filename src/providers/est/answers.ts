// Reading EST's CC5Responses into the contract's results. ProcReturnCode "00" is approval; any
// other code is the bank's refusal or error (codes.ts). An answer that names another order than
// the one asked about is not this call's: null, and the connector treats it as no answer.
import type { Declined, PaymentStatusResult, ProviderFailure, RefundStatusResult, Succeeded } from '../types.ts';
import { fromMinorDigits } from './amount.ts';
import { paymentFailure, refundFailure, type EstFailureText } from './codes.ts';
import type { BankCredit, BankOrderHistory, LostReversalVerdict } from '../lost-refund.ts';
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

/** A TRXn line of ORDERHISTORY, tab-separated (mewebstudio's mapSingleOrderHistoryTransaction). */
const TRX = { chargeType: 0, transStat: 1, amount: 2, procRetCd: 9, transId: 10 } as const;

/** One TRXn line as the lost-refund rule reads it; null when it cannot be read. */
function historyLine(line: string): { chargeType: string; transStat: string; amount: bigint; approved: boolean; code: string; transId: string } | null {
  const cells = line.split('\t');
  const amount = fromMinorDigits(cells[TRX.amount]);
  const chargeType = cells[TRX.chargeType] ?? '';
  if (amount === null || !['S', 'C'].includes(chargeType) || cells.length <= TRX.procRetCd) return null;
  const code = cells[TRX.procRetCd] ?? '';
  return { chargeType, transStat: cells[TRX.transStat] ?? '', amount, approved: code === APPROVED, code, transId: cells[TRX.transId] ?? '' };
}

/**
 * ORDERHISTORY's answer as an order history (lost-refund.ts): every TRXn line (TRX1 the newest),
 * complete when TRXCOUNT lines were there and all read. Credits are C lines (approved, voided
 * since, or refused), the sale an S line. 'retry': an answer about another order, the bank's error,
 * or an order it does not know (a payment the gateway has a reference for is at the bank).
 */
export function orderHistory(answer: CC5Response, orderId: string): StatusReading<BankOrderHistory> {
  if (answer.fields.ProcReturnCode !== APPROVED || answer.fields.OrderId !== orderId) return 'retry';
  const lines: string[] = [];
  for (let i = 1; answer.extra[`TRX${i}`] !== undefined; i += 1) lines.push(answer.extra[`TRX${i}`]!);
  const read = lines.map(historyLine);
  const txs = read.filter((tx) => tx !== null);
  const count = answer.extra.TRXCOUNT;
  const complete = count !== undefined && /^\d+$/.test(count) && Number(count) === lines.length && txs.length === lines.length;
  const credits: BankCredit[] = txs
    .filter((tx) => tx.chargeType === 'C')
    .map((tx) => ({ amount: tx.amount, state: !tx.approved ? 'refused' : VOIDED.has(tx.transStat) ? 'voided' : 'approved', code: tx.code, reference: tx.transId }));
  const sales = txs.filter((tx) => tx.chargeType === 'S' && tx.approved);
  const sale = sales.some((tx) => SOLD.has(tx.transStat)) ? 'standing' : sales.some((tx) => VOIDED.has(tx.transStat)) ? 'voided' : 'none';
  return { credits, sale, complete };
}

/** The lost-refund rule's verdict as the contract's result ('retry': the connector keeps it open). */
export function refundStatusOf(verdict: LostReversalVerdict, orderId: string): StatusReading<RefundStatusResult> {
  if (verdict.kind === 'succeeded') return { status: 'succeeded', providerReference: verdict.reference || orderId };
  if (verdict.kind === 'declined') return refundFailure({ procReturnCode: verdict.credit.code, errMsg: '' });
  return verdict.kind === 'unknown' ? { status: 'unknown' } : 'retry';
}
