// Reading iyzico's reporting answer (v2/reporting/payment/details) into a refund's or cancel's
// outcome, by the idempotency key it was sent under.
import { describe, expect, it } from 'vitest';
import { parseAnswer } from '../../../src/providers/iyzico/client.ts';
import { reversalStatusResult } from '../../../src/providers/iyzico/report.ts';
import type { PaymentReportAnswer } from '../../../src/providers/iyzico/wire.ts';

const refundTx = (key: string, status: number, extra = '') => `{"refundTxId":${Math.floor(Math.random() * 1e6)},"refundConversationId":"${key}","refundPrice":0.50,"refundStatus":${status}${extra}}`;
const REFUSED = ',"errorCode":"10012","errorMessage":"Geçersiz işlem","errorGroup":"INVALID_TRANSACTION"';

/** A report of payment 25236546 (ids as JSON numbers, as iyzico writes them) with these refunds per item and these cancels. */
function report(items: string[][], cancels: string[] = [], paymentId = 25236546): PaymentReportAnswer {
  const itemTransactions = items.map((refunds, i) => `{"paymentTransactionId":${27225634 + i},"transactionStatus":2,"price":1,"paidPrice":1,"refunds":[${refunds.join(',')}]}`);
  return parseAnswer(`{"status":"success","locale":"en","systemTime":1756383869332,"payments":[{"paymentId":${paymentId},"paymentStatus":1,
    "paymentRefundStatus":"PARTIALLY_REFUNDED","price":2,"paidPrice":2,"currency":"TRY","cancels":[${cancels.join(',')}],"itemTransactions":[${itemTransactions.join(',')}]}]}`) as PaymentReportAnswer;
}
const ask = (answer: PaymentReportAnswer, key = 'refund:r1') => reversalStatusResult(answer, key, '25236546');

describe('iyzico reporting: what became of a refund or cancel', () => {
  it('a refund done on every item it touched succeeded, named by the paymentId', () => {
    expect(ask(report([[refundTx('refund:r1', 1)], [refundTx('refund:r1', 1), refundTx('refund:r0', 1)]]))).toEqual({ status: 'succeeded', providerReference: '25236546' });
  });

  it('a refund the bank refused is declined with the bank\u2019s code', () => {
    expect(ask(report([[refundTx('refund:r1', 0, REFUSED)]]))).toMatchObject({ status: 'declined', code: 'refund_rejected', providerCode: '10012', providerMessage: 'Geçersiz işlem' });
  });

  it('a cancel is found among the cancels by its key', () => {
    const cancel = (status: number, extra = '') => `{"refundId":1,"cancelConversationId":"cancel:c1","refundPrice":2,"refundStatus":${status}${extra}}`;
    expect(ask(report([[]], [cancel(1)]), 'cancel:c1')).toEqual({ status: 'succeeded', providerReference: '25236546' });
    expect(ask(report([[]], [cancel(0, REFUSED)]), 'cancel:c1')).toMatchObject({ status: 'declined', providerCode: '10012' });
  });

  it('a payment with nothing under the key never received that refund', () => {
    expect(ask(report([[refundTx('refund:other', 1)]]))).toEqual({ status: 'unknown' });
    expect(ask(report([[]]))).toEqual({ status: 'unknown' });
  });

  it('asks again when the report cannot say', () => {
    // Done on one item and refused on another, or a status iyzico does not define.
    expect(ask(report([[refundTx('refund:r1', 1)], [refundTx('refund:r1', 0, REFUSED)]]))).toBe('retry');
    expect(ask(report([[refundTx('refund:r1', 2)]]))).toBe('retry');
    // Another payment's report, a report without payments, a failure answer.
    expect(ask(report([[refundTx('refund:r1', 1)]], [], 1))).toBe('retry');
    expect(ask(parseAnswer('{"status":"success","payments":[]}') as PaymentReportAnswer)).toBe('retry');
    expect(ask(parseAnswer('{"status":"failure","errorCode":"1","errorMessage":"Sistem hatası"}') as PaymentReportAnswer)).toBe('retry');
  });
});
