// Akbank's crypt, request mapping, serialiser and answer mapping against mewebstudio/pos (MIT),
// code nobody here wrote: the vectors below are copied from its tests/Unit/Crypt/
// AkbankPosCryptTest.php, tests/Unit/DataMapper/RequestDataMapper/AkbankPosRequestDataMapperTest.php,
// tests/Unit/DataMapper/ResponseDataMapper/AkbankPosResponseDataMapperTest.php and
// tests/Unit/Serializer/AkbankPosSerializerTest.php. The bank's signed callbacks there were
// captured from Akbank's "pre" platform, so the connector's check and the emulator's signer both
// meet the bank's own hash, not each other's.
import { describe, expect, it } from 'vitest';
import { bodyHash, callbackHashOf, expectedFormHash, signCallback } from '../../emulators/akbank-pos/hash.ts';
import { historyOf, reversalResult, saleResult, statusResult } from '../../src/providers/akbank-pos/answers.ts';
import { judgeCallback } from '../../src/providers/akbank-pos/callback.ts';
import { checkCallbackHash, formHash, hmacBase64 } from '../../src/providers/akbank-pos/hash.ts';
import { akbankJson, parseAkbankAnswer } from '../../src/providers/akbank-pos/json.ts';
import { cancelRequest, orderHistoryRequest, refundRequest, saleRequest, threeDFormFields, threeDPaymentRequest } from '../../src/providers/akbank-pos/requests.ts';

// mewebstudio's test account (AccountFactory::createAkbankPosAccount in the tests above).
const credentials = {
  merchant_safe_id: '2023090417500272654BD9A49CF07574',
  terminal_safe_id: '2023090417500284633D137A249DBBEB',
  secret_key: '3230323330393034313735303032363031353172675f357637355f3273387373745f7233725f73323333383737335f323272383774767276327672323531355f',
};
const KEY = credentials.secret_key;
const RANDOM = '128-character-random-string';
const ctx = { credentials, lang: 'tr' as const, now: () => new Date('2024-04-14T13:45:30Z'), random: () => RANDOM };
const TERMINAL = { merchantSafeId: credentials.merchant_safe_id, terminalSafeId: credentials.terminal_safe_id };

// AkbankPosResponseDataMapperTest's signed callbacks.
const CALLBACKS = {
  threeDSuccess: { txnCode: '3001', responseCode: 'VPS-0000', responseMessage: 'BAŞARILI', txnDateTime: '2024-04-18T20:15:35.000', ...TERMINAL, orderId: '20240418BA6C', secureEcomInd: '02', secureId: 'VG8yV2tCRHpTSlpNN2VqcDJRS1k=', secureData: 'kBM8+wZGAAAAAAAAAAAAAAAAAAAA', secureMd: '08A86B192287C69B2C443E7A42B29B5F46436C41DF8E159B4A232BB3D961940F', hashParams: 'txnCode+responseCode+responseMessage+txnDateTime+merchantSafeId+terminalSafeId+orderId+secureId+secureEcomInd+secureData+secureMd', hash: 'bFYReNscRIyo3EQQm18qB9iZEW5eqtx1UBAjwRAoVJuigugPKr4Rjcf4PgBHtrjg1IYFYAz8k3TCFcKWS0b4Xg==' },
  threeDAuthFail: { txnCode: '', responseCode: 'VPS-1279', responseMessage: 'BKM 3DS Server Doğrulama Başarısız', hostResponseCode: '', hostMessage: '', merchantSafeId: '', terminalSafeId: '', orderId: '20240418D4A620240418D4A620240418D4A6', hashParams: 'responseCode+responseMessage+orderId', hash: 'fFFtzKUArgzhM/nUbw6pM/EA7AjecFyMV13G+1/GVn9C0S1XNeWdtT8+x4swaxi5TZfqzwPy5wtDajxSfkZmRA==' },
  threeDPaySuccess: { txnCode: '1000', responseCode: 'VPS-0000', responseMessage: 'BAŞARILI', hostResponseCode: '00', hostMessage: '000 ONAY KODU XXXXXX', txnDateTime: '2024-04-18T20:27:45.000', ...TERMINAL, cardHolderName: 'TD**', orderId: '2024041811DA', authCode: '306456', rrn: '411024360235', batchNumber: '43', stan: '86', additionalInstallCount: '0', deferingMonth: '2', ccbEarnedRewardAmount: '0.01', ccbBalanceRewardAmount: '215.62', ccbRewardDesc: 'CHIP PARA', pcbEarnedRewardAmount: '0.00', pcbBalanceRewardAmount: '0.00', pcbRewardDesc: '', xcbEarnedRewardAmount: '0.00', xcbBalanceRewardAmount: '0.00', xcbRewardDesc: '', hashParams: 'txnCode+responseCode+responseMessage+hostResponseCode+hostMessage+txnDateTime+merchantSafeId+terminalSafeId+orderId+cardHolderName+authCode+rrn+batchNumber+stan+additionalInstallCount+deferingMonth+ccbEarnedRewardAmount+ccbBalanceRewardAmount+ccbRewardDesc+pcbEarnedRewardAmount+pcbBalanceRewardAmount+xcbEarnedRewardAmount+xcbBalanceRewardAmount', hash: 'PO/pybfGrY7fesPoAq2U2B1bkpudx659yMyjTnnfP/Cw5MKR1t7mKvRnZdPBxu9nCC7qJFdr3mJSPTdMwYc3SA==' },
  threeDPayAuthFail: { txnCode: '', responseCode: 'VPS-1279', responseMessage: 'BKM 3DS Server Doğrulama Başarısız', hostResponseCode: '', hostMessage: '', merchantSafeId: '', terminalSafeId: '', orderId: '202404180331', hashParams: 'responseCode+responseMessage+orderId', hash: 'ZKXJ0jQkkO2skSh1QC+9kVOpA2OoTNysPzJdhL1okUK6sZ0MS3T3tyu858c/ZBrI9MsgFfZxq/dLMakn9hqLMQ==' },
  threeDHostSuccess: { txnCode: '1000', responseCode: 'VPS-0000', responseMessage: 'BAŞARILI', hostResponseCode: '00', hostMessage: '000 ONAY KODU XXXXXX', txnDateTime: '2024-04-18T20:56:28.000', ...TERMINAL, cardHolderName: 'TD**', orderId: '2024041898FD', authCode: '306460', rrn: '411024360239', batchNumber: '43', stan: '90', additionalInstallCount: '0', deferingMonth: '2', ccbEarnedRewardAmount: '0.01', ccbBalanceRewardAmount: '215.66', ccbRewardDesc: 'CHIP PARA', pcbEarnedRewardAmount: '0.00', pcbBalanceRewardAmount: '0.00', pcbRewardDesc: '', xcbEarnedRewardAmount: '0.00', xcbBalanceRewardAmount: '0.00', xcbRewardDesc: '', hashParams: 'txnCode+responseCode+responseMessage+hostResponseCode+hostMessage+txnDateTime+merchantSafeId+terminalSafeId+orderId+cardHolderName+authCode+rrn+batchNumber+stan+additionalInstallCount+deferingMonth+ccbEarnedRewardAmount+ccbBalanceRewardAmount+ccbRewardDesc+pcbEarnedRewardAmount+pcbBalanceRewardAmount+xcbEarnedRewardAmount+xcbBalanceRewardAmount', hash: 'o8cVLBkljHc+1Icpoa35agcd7UPvD57gFY+bp7MQYznHnOr3f71vvsJwnbIQ2hGGVJj1nAdkZrh/lcVCdtMA+g==' },
  threeDHostAuthFail: { txnCode: '', responseCode: 'VPS-1279', responseMessage: 'BKM 3DS Server Doğrulama Başarısız', hostResponseCode: '', hostMessage: '', merchantSafeId: '', terminalSafeId: '', orderId: '20240418452F', hashParams: 'responseCode+responseMessage+orderId', hash: 'iW4wwqGV9h1ydKhpvhQ9Qeq2pOW+/HK0OB1AXoUlt/WlajbphFswh4Jy6BxTl4RAb2OICUnw+gy3UBPudHl5YA==' },
} as const;

describe('Akbank crypt (AkbankPosCryptTest)', () => {
  it('signs an API body (the auth-hash header), in the connector and in the emulator', () => {
    const body =
      '{"terminal":{"merchantSafeId":"2023090417500272654BD9A49CF07574","terminalSafeId":"2023090417500284633D137A249DBBEB"},"version":"1.00","txnCode":"1010","requestDateTime":"2024-04-20T13:48:02.000","randomNumber":"59EED19EC4FA761B8D147F5175C915EFD69D193ED96114F9690505EDB02FF5FD3CB161A15FD5EFFB294177291DC27B2A9F58FB1DA6F2F4617762AF180A023A33","order":{"orderId":"2024042053E2"}}';
    const expected = 'D07V9wUXfyPbn+L8jqd9plMfJKT3gSy22Z+yruzWsvuJBkQ63fz+wcWjTF2XurVjYtnR7wLGYTJYg0xjDCYAHA==';
    expect(hmacBase64(body, KEY)).toBe(expected);
    expect(bodyHash(body, KEY)).toBe(expected);
  });

  const form3d = { paymentModel: '3D', txnCode: '3000', ...TERMINAL, orderId: '20240404A4B0', lang: 'TR', amount: '1.01', ccbRewardAmount: '1.00', pcbRewardAmount: '1.00', xcbRewardAmount: '1.00', currencyCode: '949', installCount: '1', okUrl: 'http://localhost/akbankpos/3d/response.php', failUrl: 'http://localhost/akbankpos/3d/response.php', emailAddress: 'test@test.com', randomNumber: 'AEDDD8688E11A3DC588DAB2ED59B2F64D45E798761CEFF17F4DB47581072697890180C4195986250F89C2C67A04A3B96F0AC66AE99B49BB7BEE618FBD621C4CD', requestDateTime: '2024-04-04T21:11:41.000', creditCard: '4355093000315232', expiredDate: '1135', cvv: '665' };
  const cases: Array<[string, Record<string, string>, string]> = [
    ['3d_secure', form3d, 'ilR2mCExklKEti+2x61A8pcOfzJ5z5M6xMYmmU8ClaKaDuxKooFuH3v7XW/ba25xlTDqGN1H//i0zTiJl5YnfA=='],
    ['3d_secure_with_sub_merchant_id', { ...form3d, subMerchantId: 'hdfksafjsallk' }, 'blqnTrcdZ2JhQBjOmIhyYPhKvC4BlbG7oArE5IkCeuo8CwaYV69EJSOph7J1JKY9opIsmc5QoscGmltGMUJtTQ=='],
    ['3d_host', (({ creditCard: _c, expiredDate: _e, cvv: _v, ...rest }) => ({ ...rest, paymentModel: 'MODEL_3D_HOST' }))(form3d), '36uUlZFNi+Fs928RPt9CUfKfq+2hTWKK6idWFXjwnO47Qz4pVk6bliSUY+4RGw8Fzcqz+MUWQQ2Grz2zk4l9og=='],
  ];
  it.each(cases)("signs the %s form as the bank expects, in the connector and in the emulator's gate", (_name, fields, expected) => {
    expect(formHash(fields, KEY)).toBe(expected);
    expect(expectedFormHash((name) => fields[name] ?? '', KEY)).toBe(expected);
  });

  it.each(Object.entries(CALLBACKS))("checks the bank's signed callback %s, in the connector and in the emulator", (_name, fields) => {
    expect(checkCallbackHash(fields, KEY)).toBe(true);
    expect(callbackHashOf(fields, KEY)).toBe(fields.hash);
    // AkbankPosCryptTest: an emptied responseCode no longer checks.
    expect(checkCallbackHash({ ...fields, responseCode: '' }, KEY)).toBe(false);
    expect(checkCallbackHash(fields, `${KEY}x`)).toBe(false);
  });
});

describe('Akbank requests (AkbankPosRequestDataMapperTest)', () => {
  const card = { holderName: 'ahmet', number: '5555444433332222', securityCode: '123', expiryMonth: '01', expiryYear: '2022' };
  const head = { terminal: TERMINAL, version: '1.00', randomNumber: RANDOM, requestDateTime: '2024-04-14T16:45:30.000' };

  it('maps a sale without 3-D Secure (pay_no_installment, pay_with_installment)', () => {
    const expected = (installCount: number) => ({ ...head, txnCode: '1000', card: { cardNumber: '5555444433332222', cvv2: '123', expireDate: '0122' }, order: { orderId: '2020110828BC' }, transaction: { amount: '1.10', currencyCode: 949, motoInd: 0, installCount }, customer: { ipAddress: '127.0.0.1' } });
    expect(saleRequest({ orderId: '2020110828BC', amount: 110n, currency: 'TRY', installmentNumber: 1, card, ip: '127.0.0.1' }, ctx)).toEqual(expected(1));
    expect(saleRequest({ orderId: '2020110828BC', amount: 110n, currency: 'TRY', installmentNumber: 2, card, ip: '127.0.0.1' }, ctx)).toEqual(expected(2));
  });

  it("maps the 3D model's sale with the callback's secure data", () => {
    const secure = { secureId: CALLBACKS.threeDSuccess.secureId, secureEcomInd: '02', secureData: CALLBACKS.threeDSuccess.secureData, secureMd: CALLBACKS.threeDSuccess.secureMd };
    expect(threeDPaymentRequest({ orderId: '2020110828BC', amount: 10025n, currency: 'TRY', installmentNumber: 1, secure, ip: '156.155.154.153' }, ctx)).toEqual({
      ...head,
      txnCode: '1000',
      order: { orderId: '2020110828BC' },
      transaction: { amount: '100.25', currencyCode: 949, motoInd: 0, installCount: 1 },
      secureTransaction: secure,
      customer: { ipAddress: '156.155.154.153' },
    });
  });

  it('maps refunds, cancels and the order history', () => {
    expect(refundRequest({ orderId: '2020110828BC', amount: 102n, currency: 'TRY' }, ctx)).toEqual({ ...head, txnCode: '1002', order: { orderId: '2020110828BC' }, transaction: { amount: '1.02', currencyCode: 949 } });
    expect(cancelRequest({ orderId: '2020110828BC' }, ctx)).toEqual({ ...head, txnCode: '1003', order: { orderId: '2020110828BC' } });
    expect(orderHistoryRequest({ orderId: '2020110828BC' }, ctx)).toEqual({ ...head, txnCode: '1010', order: { orderId: '2020110828BC' } });
  });

  it('maps the 3D, 3D Pay and 3D Host forms (threeDFormDataProvider)', () => {
    const base = { ...TERMINAL, txnCode: '3000', orderId: '2020110828BC', lang: 'TR', currencyCode: '949', installCount: '1', okUrl: 'http://localhost/cb', failUrl: 'http://localhost/cb', randomNumber: RANDOM, requestDateTime: '2024-04-14T16:45:30.000' };
    const withCard = { creditCard: '5555444433332222', expiredDate: '0122', cvv: '123' };
    const form = (model: '3d' | '3d_pay' | '3d_host', amount: bigint) => {
      const { hash, ...fields } = threeDFormFields({ orderId: '2020110828BC', amount, currency: 'TRY', installmentNumber: 0, callbackUrl: 'http://localhost/cb', model, card }, ctx);
      expect(hash).toBe(formHash(fields, KEY));
      return fields;
    };
    expect(form('3d', 110n)).toEqual({ ...base, paymentModel: '3D', amount: '1.10', ...withCard });
    expect(form('3d_pay', 110n)).toEqual({ ...base, paymentModel: '3D_PAY', amount: '1.10', ...withCard });
    expect(form('3d_host', 1000n)).toEqual({ ...base, paymentModel: '3D_PAY_HOSTING', amount: '10.00' });
  });
});

describe('Akbank serialiser (AkbankPosSerializerTest)', () => {
  it('encodes and decodes JSON as the bank expects', () => {
    expect(akbankJson({ abc: 1 })).toBe('{"abc":1}');
    expect(parseAkbankAnswer('{"abc": 1}')).toEqual({ abc: 1 });
    expect(parseAkbankAnswer('<html>')).toBeNull();
  });

  it("writes '/' and non-ASCII as PHP's json_encode does, so the auth-hash signs the bank's bytes", () => {
    expect(akbankJson({ okUrl: 'http://a/b', name: 'Ayşe' })).toBe('{"okUrl":"http:\\/\\/a\\/b","name":"Ay\\u015fe"}');
  });
});

describe('Akbank answers (AkbankPosResponseDataMapperTest)', () => {
  it('reads an approved sale and refusals with their codes', () => {
    const success = { txnCode: '1000', responseCode: 'VPS-0000', responseMessage: 'BAŞARILI', hostResponseCode: '00', hostMessage: '000 ONAY KODU XXXXXX', txnDateTime: '2022-03-01T09:29:23.851', order: { orderId: 'b9ebfdc5' }, transaction: { authCode: '064716', rrn: '206125059548', batchNumber: 99, stan: 5 } };
    expect(saleResult(success, 'b9ebfdc5')).toEqual({ status: 'succeeded', providerReference: 'b9ebfdc5' });
    expect(saleResult(success, 'other')).toBeNull();
    // fail_invalid_installment_count: the issuer's refusal, its host message kept.
    const installment = { txnCode: '1000', hostResponseCode: '83', hostMessage: '183 TAKSIT TUTAR HAT', responseMessage: 'Provizyon Hatası', responseCode: 'VPS-1005', order: { orderId: '20240423303F' }, transaction: { authCode: '000000', stan: 5, rrn: '411524361163', batchNumber: 50 } };
    expect(saleResult(installment, '20240423303F')).toEqual({ status: 'declined', code: 'card_declined', message: '183 TAKSIT TUTAR HAT', providerCode: 'VPS-1005:83', providerMessage: '183 TAKSIT TUTAR HAT' });
    // fail_duplicate_order: the gateway's own mistake, not the card's.
    const duplicate = { txnCode: '1000', responseMessage: 'Sipariş Numarası : 202404142607 tekil olmalıdır', responseCode: 'VPS-1013', order: { orderId: '202404142607' } };
    expect(saleResult(duplicate, '202404142607')).toMatchObject({ status: 'error', code: 'provider_error', providerCode: 'VPS-1013' });
    expect(saleResult({ txnCode: '1000' }, 'x')).toBeNull();
  });

  it('reads refunds and cancels (refundDataProvider, cancelDataProvider)', () => {
    const refund = { txnCode: '1002', hostResponseCode: '00', responseMessage: 'BAŞARILI', transaction: { authCode: '305965', stan: 17, rrn: '410824359690', batchNumber: 41 }, responseCode: 'VPS-0000', order: { orderId: '20240415E30D' } };
    expect(reversalResult(refund, '20240415E30D')).toEqual({ status: 'succeeded', providerReference: '20240415E30D:410824359690' });
    const cancelled = { txnCode: '1002', responseMessage: 'Daha önce iptal edilmiş işlem', transaction: { stan: 0, rrn: '0', batchNumber: 0 }, responseCode: 'VPS-1008', order: { orderId: '202404153EB9' } };
    expect(reversalResult(cancelled, '202404153EB9')).toMatchObject({ status: 'declined', code: 'refund_rejected', providerCode: 'VPS-1008' });
    const cancel = { txnCode: '1003', responseCode: 'VPS-0000', responseMessage: 'BAŞARILI', order: { orderId: 'b9ebfdc5' } };
    expect(reversalResult(cancel, 'b9ebfdc5')).toEqual({ status: 'succeeded', providerReference: 'b9ebfdc5' });
  });

  const entry = (over: Record<string, unknown>) => ({ amount: 1.01, authCode: '305957', hostResponseCode: '00', orderId: '20240415ABDD', maskedCardNumber: '521807******2834', txnDateTime: '2024-04-15T20:41:03.165', responseCode: 'VPS-0000', rrn: '410724359540', installCount: 1, txnCode: '1000', txnStatus: 'N', orgOrderId: '20240415ABDD', responseMessage: 'BAŞARILI', currencyCode: 949, batchNumber: 39, ...over });
  const history = (...entries: unknown[]) => ({ txnCode: '1010', txnDetailList: entries, responseMessage: 'BAŞARILI', responseCode: 'VPS-0000' });

  it('reads the order history as the inquiry after a lost answer (orderHistoryDataProvider)', () => {
    const expected = { orderId: '20240415ABDD', amount: 101n };
    expect(statusResult(history(entry({})), expected)).toEqual({ status: 'succeeded', providerReference: '20240415ABDD' });
    expect(statusResult(history(entry({})), { ...expected, amount: 100n })).toBe('retry');
    // success_pay_then_cancel: the sale stood when the answer was lost; it is the payment's success.
    expect(statusResult(history(entry({ txnStatus: 'V' })), expected)).toMatchObject({ status: 'succeeded' });
    // success_failed_transaction: the issuer refused (host 05).
    const refused = entry({ responseCode: 'VPS-1005', hostResponseCode: '05', hostMessage: '005 RED-ONAYLANMADI', responseMessage: 'Provizyon Hatası', authCode: undefined });
    expect(statusResult(history(refused), expected)).toMatchObject({ status: 'declined', code: 'card_declined', providerCode: 'VPS-1005:05' });
    // fail_order_not_found
    const notFound = { txnCode: '1010', responseMessage: 'İşlem bulunamadı. Sipariş Numarası : 2024041426072', responseCode: 'VPS-1123' };
    expect(statusResult(notFound, expected)).toEqual({ status: 'unknown' });
  });

  it('reads the order history for the lost-refund rule', () => {
    expect(historyOf(history(entry({ txnStatus: 'V' })), '20240415ABDD')).toEqual({ credits: [], sale: 'voided', complete: true });
    const refunds = history(entry({ txnCode: '1002', amount: 0.4, rrn: '411' }), entry({ txnCode: '1002', amount: 0.3, responseCode: 'VPS-1903', rrn: '0' }), entry({}));
    expect(historyOf(refunds, '20240415ABDD')).toEqual({
      credits: [
        { amount: 40n, state: 'approved', code: 'VPS-0000', reference: '411' },
        { amount: 30n, state: 'refused', code: 'VPS-1903', reference: '' },
      ],
      sale: 'standing',
      complete: true,
    });
    expect(historyOf(history(entry({ orgOrderId: 'other', orderId: 'other' })), '20240415ABDD')).toEqual({ credits: [], sale: 'none', complete: false });
  });

  const account = { ...TERMINAL, secretKey: KEY };
  const paymentOf = (orderId: string) => ({ startKey: 'k', providerReference: orderId, amount: 101n, currency: 'TRY' as const });

  it("judges the bank's 3D callbacks: authenticated with its secure data, or not authenticated", () => {
    const ok = judgeCallback({ ...account, model: '3d' }, paymentOf('20240418BA6C'), { ...CALLBACKS.threeDSuccess });
    expect(ok).toEqual({ status: 'verified', authenticated: true, data: { orderId: '20240418BA6C', secureId: CALLBACKS.threeDSuccess.secureId, secureEcomInd: '02', secureData: CALLBACKS.threeDSuccess.secureData, secureMd: CALLBACKS.threeDSuccess.secureMd } });
    const failed = judgeCallback({ ...account, model: '3d' }, paymentOf('20240418D4A620240418D4A620240418D4A6'), { ...CALLBACKS.threeDAuthFail });
    expect(failed).toMatchObject({ status: 'verified', authenticated: false, failure: { code: '3ds_failed', providerCode: 'VPS-1279' } });
  });

  it("judges the bank's 3D Pay and 3D Host callbacks: charged, or not authenticated", () => {
    for (const [model, success, fail] of [
      ['3d_pay', CALLBACKS.threeDPaySuccess, CALLBACKS.threeDPayAuthFail],
      ['3d_host', CALLBACKS.threeDHostSuccess, CALLBACKS.threeDHostAuthFail],
    ] as const) {
      expect(judgeCallback({ ...account, model }, paymentOf(success.orderId), { ...success })).toMatchObject({ status: 'verified', authenticated: true, data: { responseCode: 'VPS-0000', rrn: success.rrn } });
      expect(judgeCallback({ ...account, model }, paymentOf(fail.orderId), { ...fail })).toMatchObject({ status: 'verified', authenticated: false, failure: { code: '3ds_failed' } });
      // Another payment's callback, and one whose signature no longer holds.
      expect(judgeCallback({ ...account, model }, paymentOf('20240418BA6C'), { ...success })).toMatchObject({ status: 'rejected', cause: 'order' });
      expect(judgeCallback({ ...account, model }, paymentOf(success.orderId), { ...success, responseCode: 'VPS-0000 ' })).toMatchObject({ status: 'rejected', cause: 'signature' });
    }
  });

  it('refuses a callback signed with the key but not over its order id and outcome', () => {
    // A genuine signature over less: the unsigned orderId and responseCode could be anyone's.
    const signedLess = { ...signCallback({ responseMessage: 'BAŞARILI', txnDateTime: '2024-04-18T20:15:35.000' }, KEY), responseCode: 'VPS-0000', orderId: '20240418BA6C' };
    expect(checkCallbackHash(signedLess, KEY)).toBe(true);
    expect(judgeCallback({ ...account, model: '3d_pay' }, paymentOf('20240418BA6C'), signedLess)).toMatchObject({ status: 'rejected', cause: 'incomplete' });
    const noSecure = { ...CALLBACKS.threeDSuccess, hashParams: 'txnCode+responseCode+responseMessage+txnDateTime+merchantSafeId+terminalSafeId+orderId' };
    const resigned = { ...noSecure, hash: callbackHashOf(noSecure, KEY) };
    expect(judgeCallback({ ...account, model: '3d' }, paymentOf('20240418BA6C'), resigned)).toMatchObject({ status: 'rejected', cause: 'incomplete' });
  });
});
