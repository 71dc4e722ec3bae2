import { describe, expect, it } from 'vitest';
import {
  binInfoResult,
  cancelResult,
  deleteCardResult,
  installmentOptionsResult,
  paymentDetailResult,
  paymentResult,
  refundResult,
  storeCardResult,
  threeDSStartResult,
} from '../../../src/providers/iyzico/answers.ts';
import { parseAnswer } from '../../../src/providers/iyzico/client.ts';
import type { PaymentAnswer } from '../../../src/providers/iyzico/wire.ts';
import { iyzipaySignature } from './iyzipay-reference.ts';

const secretKey = 'sandbox-answers-secret';
const read = <T>(text: string): T => parseAnswer(text) as T;

/** A payment/auth answer in iyzico's shape, signed with iyzipay's own function. */
function paid(extra = '', key = secretKey): PaymentAnswer {
  const signature = iyzipaySignature(['25149157', 'TRY', 'pay-1', 'pay-1', 1.2, 1], key);
  return read(`{"status":"success","locale":"tr","systemTime":1700000000000,"conversationId":"pay-1","price":1.0,"paidPrice":1.20,
    "installment":1,"paymentId":"25149157","fraudStatus":1,"cardAssociation":"MASTER_CARD","basketId":"pay-1","currency":"TRY",
    "itemTransactions":[{"itemId":"payment","paymentTransactionId":"67890","price":1.0,"paidPrice":1.20}],"signature":"${signature}"${extra}}`);
}
const failed = (code: string, group = '') => read<PaymentAnswer>(`{"status":"failure","errorCode":"${code}","errorMessage":"Kart limiti yetersiz","errorGroup":"${group}","locale":"tr"}`);

describe('reading iyzico answers into the provider contract', () => {
  it('reads a paid payment into a reference with both iyzico ids', () => {
    expect(paymentResult(paid(), secretKey)).toEqual({ status: 'succeeded', providerReference: '25149157:67890' });
  });

  it('reads a refusal with the gateway code and iyzico\u2019s text', () => {
    expect(paymentResult(failed('10051', 'NOT_SUFFICIENT_FUNDS'), secretKey)).toEqual({
      status: 'declined',
      code: 'insufficient_funds',
      message: 'Kart limiti yetersiz',
      providerCode: '10051',
      providerMessage: 'Kart limiti yetersiz',
    });
    expect(paymentResult(failed('10214', 'COMMUNICATION_OR_SYSTEM_ERROR'), secretKey)).toMatchObject({ status: 'error', code: 'provider_error' });
  });

  it('does not trust a success with a bad signature or without the transaction id', () => {
    expect(paymentResult(paid('', 'another-secret'), secretKey)).toBeNull();
    expect(paymentResult({ ...paid(), itemTransactions: [] }, secretKey)).toBeNull();
    expect(paymentResult({ ...paid(), paymentId: undefined }, secretKey)).toBeNull();
  });

  it('does not trust a paid answer for another amount or currency than asked', () => {
    expect(paymentResult(paid(), secretKey, { amount: 120n, currency: 'TRY' })).toEqual({ status: 'succeeded', providerReference: '25149157:67890' });
    expect(paymentResult(paid(), secretKey, { amount: 100n, currency: 'TRY' })).toBeNull();
    expect(paymentResult(paid(), secretKey, { amount: 120n, currency: 'USD' })).toBeNull();
  });

  it('keeps every basket item\u2019s transaction in the reference', () => {
    const answer = paid();
    const items = [
      { itemId: 'a', paymentTransactionId: '1', price: '0.5', paidPrice: '0.6' },
      { itemId: 'b', paymentTransactionId: '2', price: '0.5', paidPrice: '0.6' },
    ];
    expect(paymentResult({ ...answer, itemTransactions: items }, secretKey)).toEqual({ status: 'succeeded', providerReference: '25149157:1,2' });
  });

  it('reads payment/detail: a signed SUCCESS for the amount asked, FAILURE, and payments without an outcome yet', () => {
    const asked = { amount: 120n, currency: 'TRY' };
    const detail = (status: string, extra = '', key = secretKey) => ({ ...paid(extra, key), paymentStatus: status });
    expect(paymentDetailResult(detail('SUCCESS'), secretKey, asked)).toEqual({ status: 'succeeded', providerReference: '25149157:67890' });
    expect(paymentDetailResult(detail('FAILURE'), secretKey, asked)).toMatchObject({ status: 'declined', providerCode: 'paymentStatus:FAILURE' });
    expect(paymentDetailResult(detail('INIT_THREEDS'), secretKey, asked)).toEqual({ status: 'unknown' });
    expect(paymentDetailResult(detail('CALLBACK_THREEDS'), secretKey, asked)).toEqual({ status: 'unknown' });
    expect(paymentDetailResult(detail('SUCCESS'), secretKey, { amount: 999n, currency: 'TRY' })).toEqual({ status: 'unknown' });
    expect(paymentDetailResult(detail('SUCCESS', '', 'another-secret'), secretKey, asked)).toBe('retry');
    expect(paymentDetailResult({ ...detail('SUCCESS'), signature: undefined }, secretKey, asked)).toBe('retry');
  });

  it('takes iyzico\u2019s fraud refusal for a decline', () => {
    expect(paymentResult({ ...paid(), fraudStatus: -1 }, secretKey)).toMatchObject({ status: 'declined', code: 'card_declined' });
  });

  it('reads a 3D start: the page for the shopper and a reference without a transaction yet', () => {
    const html = '<html><body><form action="https://acs.example/"></form></body></html>';
    const signature = iyzipaySignature(['25149157', 'pay-1'], secretKey);
    const started = threeDSStartResult(read(`{"status":"success","paymentId":"25149157","conversationId":"pay-1","threeDSHtmlContent":"${Buffer.from(html).toString('base64')}","signature":"${signature}"}`), secretKey);
    expect(started).toEqual({ status: 'pending', providerReference: '25149157', html });
    expect(threeDSStartResult(read('{"status":"success","paymentId":"1","conversationId":"pay-1","threeDSHtmlContent":"eA==","signature":"00"}'), secretKey)).toBeNull();
    expect(threeDSStartResult(failed('10217', 'DEBIT_CARDS_REQUIRES_3DS'), secretKey)).toMatchObject({ status: 'declined', code: '3ds_required' });
  });

  it('reads refunds and cancels; any bank refusal of them is refund_rejected', () => {
    expect(refundResult(read('{"status":"success","paymentId":"25149157","paymentTransactionId":"67890","price":0.5,"currency":"TRY"}'))).toEqual({ status: 'succeeded', providerReference: '67890' });
    expect(refundResult(failed('10051', 'NOT_SUFFICIENT_FUNDS'))).toMatchObject({ status: 'declined', code: 'refund_rejected' });
    expect(cancelResult(read('{"status":"success","paymentId":"25149157","price":1.0,"currency":"TRY"}'))).toEqual({ status: 'succeeded', providerReference: '25149157' });
    expect(cancelResult(failed('5093'))).toMatchObject({ status: 'declined', code: 'refund_rejected' });
    expect(refundResult(read('{"status":"success"}'))).toBeNull();
  });

  it('reads a stored card into one reference and its scheme, and a deletion', () => {
    expect(storeCardResult(read('{"status":"success","cardUserKey":"Y6VL+x=","cardToken":"d9EM/U=","cardAssociation":"MASTER_CARD","binNumber":"552879","lastFourDigits":"0008"}'))).toEqual({
      status: 'stored',
      cardReference: 'Y6VL+x=:d9EM/U=',
      scheme: 'mastercard',
    });
    expect(storeCardResult(failed('3001'))).toMatchObject({ status: 'declined', code: 'card_storage_refused' });
    expect(deleteCardResult(read('{"status":"success"}'))).toEqual({ status: 'deleted' });
    expect(deleteCardResult(failed('3008'))).toMatchObject({ status: 'declined', code: 'card_storage_refused' });
  });

  it('reads a BIN answer', () => {
    const answer = read<Parameters<typeof binInfoResult>[1]>('{"status":"success","binNumber":"535805","cardType":"DEBIT_CARD","cardAssociation":"MASTER_CARD","cardFamily":"Bonus","bankName":"Halkbank","bankCode":12,"commercial":0}');
    expect(binInfoResult('535805', answer)).toEqual({ bin: '535805', issuerName: 'Halkbank', issuerCode: '12', scheme: 'mastercard', type: 'debit', program: 'Bonus', isCommercial: false });
    expect(binInfoResult('535805', failed('10213'))).toBeNull();
  });

  it('reads instalment plans with exact amounts', () => {
    const answer = read<Parameters<typeof installmentOptionsResult>[0]>(`{"status":"success","installmentDetails":[{"binNumber":"535805","price":100.0,
      "installmentPrices":[{"installmentPrice":100.0,"totalPrice":100.0,"installmentNumber":1},{"installmentPrice":34.33,"totalPrice":102.99,"installmentNumber":3}]}]}`);
    expect(installmentOptionsResult(answer)).toEqual([
      { number: 1, amount: 10_000n, total: 10_000n },
      { number: 3, amount: 3_433n, total: 10_299n },
    ]);
    expect(installmentOptionsResult(read('{"status":"success","installmentDetails":[{"installmentPrices":[{"installmentPrice":1.005,"totalPrice":1,"installmentNumber":1}]}]}'))).toBeNull();
  });
});
