// PayFor's crypt, request mapping, serialiser and answer mapping against mewebstudio/pos (MIT),
// code nobody here wrote: the vectors below are copied from its tests/Unit/Crypt/
// PayForPosCryptTest.php, tests/Unit/DataMapper/RequestDataMapper/PayForPosRequestDataMapperTest.php,
// tests/Unit/DataMapper/ResponseDataMapper/PayForPosResponseDataMapperTest.php and
// tests/Unit/Serializer/PayForPosSerializerTest.php. The bank's signed answers there were captured
// from PayFor's test system, so the connector's check and the emulator's signer both meet the bank's
// own ResponseHash, not each other's.
import { describe, expect, it } from 'vitest';
import { signCallback, expectedFormHash } from '../../emulators/payfor/hash.ts';
import { historyOf, saleResult, statusResult } from '../../src/providers/payfor/answers.ts';
import { judgeCallback } from '../../src/providers/payfor/callback.ts';
import { checkResponseHash, formHash } from '../../src/providers/payfor/hash.ts';
import { historyRequest, payforAmount, refundRequest, saleRequest, statusRequest, threeDFormFields, threeDPaymentRequest, voidRequest } from '../../src/providers/payfor/requests.ts';
import { parsePayforAnswer, payforRequestXml } from '../../src/providers/payfor/xml.ts';

// mewebstudio's test account (AccountFactory::createPayForAccount in the tests above).
const credentials = { merchant_id: '085300000009704', user_code: 'QNB_API_KULLANICI_3DPAY', user_password: 'UcBN0', store_key: '12345678' };
const signer = { merchantId: credentials.merchant_id, userCode: credentials.user_code, storeKey: credentials.store_key };
const ctx = { credentials, lang: 'tr' as const };

// PayForPosResponseDataMapperTest's 3-D answers (the fields the hash and the decision read).
const ANSWERS = {
  threeDModelSuccess: { RequestGuid: '1000000081255931', MerchantID: '085300000009704', OrderId: '20221031CFD0', SecureType: '3DModel', PurchAmount: '1.01', Currency: '949', TxnType: 'Auth', ErrMsg: '3D Kullanıcı Doğrulama Adımı Başarılı', '3DStatus': '1', AuthCode: '', HostRefNum: '', ProcReturnCode: 'V033', ResponseRnd: 'PF638028524588902912', ResponseHash: '6OWhNzqTEXUGkY6HN90QKHdP53c=', HashType: 'Sha1' },
  threeDModelAuthFail: { RequestGuid: '1000000081255934', MerchantID: '085300000009704', OrderId: '202210317565', SecureType: '3DModel', PurchAmount: '1.01', Currency: '949', TxnType: 'Auth', ErrMsg: '3D Kullanıcı Doğrulama Adımı Başarısız', '3DStatus': '-1', AuthCode: '', HostRefNum: '', ProcReturnCode: 'V034', ResponseRnd: 'PF638028527847983529', ResponseHash: 'Jzj512Gluz+bmMD8sQYrqCuAQ30=', HashType: 'Sha1' },
  threeDPaySuccess: { RequestGuid: '1000000081255944', MerchantID: '085300000009704', OrderId: '2022103114B3', SecureType: '3DPay', PurchAmount: '1.01', Currency: '949', TxnType: 'Auth', ErrMsg: 'Onaylandı', '3DStatus': '1', AuthCode: 'S86797', HostRefNum: '230422100150', ProcReturnCode: '00', ResponseRnd: 'PF638028538035077529', ResponseHash: 'il/SWNG2llQkLgnCbUG6lPYtlgM=', HashType: 'Sha1' },
  threeDPayAuthFail: { RequestGuid: '1000000081255948', MerchantID: '085300000009704', OrderId: '202210317223', SecureType: '3DPay', PurchAmount: '1.01', Currency: '949', TxnType: 'Auth', ErrMsg: '3D Secure Authorize Error', '3DStatus': '-1', AuthCode: '', HostRefNum: '', ProcReturnCode: 'MR15', ResponseRnd: 'PF638028540963074026', ResponseHash: 'n3zpDnIyZcVRGVowGNuMK4rH3x4=', HashType: 'Sha1' },
  threeDHostSuccess: { OrderId: '2022103121CA', AuthCode: 'S28031', ProcReturnCode: '00', '3DStatus': '1', ResponseRnd: 'PF638028543970517651', ResponseHash: 'R3sOuVFWDP8nvu9mtVtvLxwlqow=' },
  threeDHostAuthFail: { OrderId: '202210316DBA', AuthCode: '', ProcReturnCode: 'MR15', '3DStatus': '-1', ResponseRnd: 'PF638028546475263865', ResponseHash: '7wnXcENucbamQSSzh95kRA8nzN8=' },
  // PayForPosCryptTest's check3DHash vector.
  cryptCheck: { OrderId: '20221031FD04', AuthCode: '', ProcReturnCode: 'V033', '3DStatus': '1', ResponseRnd: 'PF638028511007418219', ResponseHash: 'rVcKoOOl3jKukGLHcQaVM6ZuznU=' },
  // 'order_number_already_exist' (2024): the bank signed with SHA-256 and sent no HashType.
  orderNumberUsed: { OrderId: '202403173F72', AuthCode: '', ProcReturnCode: '101310', '3DStatus': '-1', ResponseRnd: 'PF638462944484307452', ResponseHash: 'wWLUtYZD9VUIi9Pl3mAyS02LLsUxWy6lauMfFBiuVDw=' },
} as const;

describe('PayFor crypt (PayForPosCryptTest)', () => {
  const formFields = { MbrId: '5', OrderId: '2020110828BC', PurchAmount: '100.01', TxnType: 'Auth', InstallmentCount: '0', OkUrl: 'http://localhost/finansbank-payfor/3d/response.php', FailUrl: 'http://localhost/finansbank-payfor/3d/response.php', Rnd: '0.43625700 1604831630' };

  it("signs the 3D form as the bank expects, in the connector and in the emulator's gate", () => {
    expect(formHash(formFields, credentials.store_key)).toBe('zmSUxYPhmCj7QOzqpk/28LuE1Oc=');
    expect(expectedFormHash((name) => formFields[name as keyof typeof formFields], credentials.store_key)).toBe('zmSUxYPhmCj7QOzqpk/28LuE1Oc=');
  });

  it.each(Object.entries(ANSWERS))("checks the bank's ResponseHash of %s, and the emulator signs it the same", (_name, answer) => {
    expect(checkResponseHash(signer, answer)).toBe(true);
    const algorithm = answer.ResponseHash.length === 44 ? 'sha256' : 'sha1';
    expect(signCallback(answer, signer, algorithm)).toBe(answer.ResponseHash);
    // As the vector's own test does: an answer whose 3DStatus was changed no longer checks.
    expect(checkResponseHash(signer, { ...answer, '3DStatus': '' })).toBe(false);
    expect(checkResponseHash({ ...signer, storeKey: '87654321' }, answer)).toBe(false);
  });
});

describe('PayFor request mapping (PayForPosRequestDataMapperTest)', () => {
  const card = { holderName: 'ahmet', number: '5555444433332222', securityCode: '123', expiryMonth: '01', expiryYear: '2022' };
  const account = { MerchantId: '085300000009704', UserCode: 'QNB_API_KULLANICI_3DPAY', UserPass: 'UcBN0', MbrId: '5' };
  const inOrder = (value: object) => Object.entries(value);

  it('maps a non-3D sale field for field, in order', () => {
    const request = saleRequest({ orderId: '2020110828BC', amount: 10001n, currency: 'TRY', installmentNumber: 1, card }, ctx);
    expect(inOrder(request)).toEqual(
      inOrder({ ...account, MOTO: '0', OrderId: '2020110828BC', SecureType: 'NonSecure', TxnType: 'Auth', PurchAmount: '100.01', Currency: '949', InstallmentCount: '0', Lang: 'tr', CardHolderName: 'ahmet', Pan: '5555444433332222', Expiry: '0122', Cvv2: '123' }),
    );
  });

  it('maps the 3D model sale, the void, the refunds, the inquiry and the history', () => {
    expect(threeDPaymentRequest({ requestGuid: '1000000057437884', orderId: '2020110828BC' }, ctx)).toEqual({ RequestGuid: '1000000057437884', UserCode: 'QNB_API_KULLANICI_3DPAY', UserPass: 'UcBN0', OrderId: '2020110828BC', SecureType: '3DModelPayment' });
    expect(inOrder(voidRequest({ orderId: '2020110828BC', currency: 'TRY' }, ctx))).toEqual(inOrder({ ...account, OrgOrderId: '2020110828BC', SecureType: 'NonSecure', TxnType: 'Void', Currency: '949', Lang: 'tr' }));
    // full_refund and partial_refund: the same request, amount 5 written "5".
    expect(refundRequest({ orderId: '7022b92e', amount: 500n, currency: 'TRY' }, ctx)).toEqual({ ...account, OrgOrderId: '7022b92e', PurchAmount: '5', SecureType: 'NonSecure', TxnType: 'Refund', Currency: '949', Lang: 'tr' });
    expect(statusRequest({ orderId: '2020110828BC' }, ctx)).toEqual({ ...account, OrgOrderId: '2020110828BC', SecureType: 'Inquiry', Lang: 'tr', TxnType: 'OrderInquiry' });
    expect(historyRequest({ orderId: '2020110828BC' }, ctx)).toEqual({ ...account, SecureType: 'Report', OrderId: '2020110828BC', TxnType: 'TxnHistory', Lang: 'tr' });
  });

  it("maps the 3D form ('with_card') and signs it", () => {
    const fields = threeDFormFields({ orderId: '2020110828BC', amount: 10001n, currency: 'TRY', installmentNumber: 1, card, callbackUrl: 'http://localhost/cb', model: '3d', rnd: '1deda47050cd38112cbf91f4' }, ctx);
    const { Hash, ...rest } = fields;
    expect(rest).toEqual({ MbrId: '5', MerchantID: '085300000009704', UserCode: 'QNB_API_KULLANICI_3DPAY', OrderId: '2020110828BC', Lang: 'tr', SecureType: '3DModel', TxnType: 'Auth', PurchAmount: '100.01', InstallmentCount: '0', Currency: '949', OkUrl: 'http://localhost/cb', FailUrl: 'http://localhost/cb', Rnd: '1deda47050cd38112cbf91f4', CardHolderName: 'ahmet', Pan: '5555444433332222', Expiry: '0122', Cvv2: '123' });
    expect(Hash).toBe(formHash(fields as never, credentials.store_key));
    expect(threeDFormFields({ orderId: 'o', amount: 100n, currency: 'TRY', installmentNumber: 3, card, callbackUrl: 'http://x/cb', model: '3d_pay' }, ctx)).toMatchObject({ SecureType: '3DPay', InstallmentCount: '3', PurchAmount: '1' });
  });

  it('writes amounts as PHP writes the float mewebstudio sends', () => {
    expect([payforAmount(10025n), payforAmount(10050n), payforAmount(10000n), payforAmount(1n)]).toEqual(['100.25', '100.5', '100', '0.01']);
    expect(() => payforAmount(0n)).toThrow(RangeError);
  });
});

describe('PayFor serialiser (PayForPosSerializerTest)', () => {
  it('encodes a request byte for byte', () => {
    const request = { MerchantId: '085300000009704', UserCode: 'QNB_API_KULLANICI_3DPAY', UserPass: 'UcBN0', MbrId: '5', MOTO: '0', OrderId: 'order222', SecureType: 'NonSecure', TxnType: 'Auth', PurchAmount: '100.25', Currency: '949', InstallmentCount: '0', Lang: 'tr', CardHolderName: 'ahmet', Pan: '5555444433332222', Expiry: '1221', Cvv2: '122' };
    expect(payforRequestXml(request)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<PayforRequest><MerchantId>085300000009704</MerchantId><UserCode>QNB_API_KULLANICI_3DPAY</UserCode><UserPass>UcBN0</UserPass><MbrId>5</MbrId><MOTO>0</MOTO><OrderId>order222</OrderId><SecureType>NonSecure</SecureType><TxnType>Auth</TxnType><PurchAmount>100.25</PurchAmount><Currency>949</Currency><InstallmentCount>0</InstallmentCount><Lang>tr</Lang><CardHolderName>ahmet</CardHolderName><Pan>5555444433332222</Pan><Expiry>1221</Expiry><Cvv2>122</Cvv2></PayforRequest>\n',
    );
  });

  it("decodes a sale's answer, the bank's stray line breaks included", () => {
    const text = '<?xml version="1.0" encoding="utf-8"?>\n<PayforResponse>\n<AuthCode>S31432</AuthCode>\n<HostRefNum>326011208369</HostRefNum>\n<ProcReturnCode>00</ProcReturnCode>\n<TransId>20230917EF0E</TransId>\n<ErrMsg>Onaylandı</ErrMsg>\n<CardHolderName>John Doe</CardHolderName>\n<ArtiTaksit>0</ArtiTaksit>\n<BankInternalResponseMessage></BankInternalResponseMessage>\n<PAYFORFROMXMLREQUEST>1</PAYFORFROMXMLREQUEST>\n<SESSION_SYSTEM_USER>0</SESSION_SYSTEM_USER>\n</PayforResponse>';
    expect(parsePayforAnswer(text)).toEqual({
      kind: 'response',
      fields: { AuthCode: 'S31432', HostRefNum: '326011208369', ProcReturnCode: '00', TransId: '20230917EF0E', ErrMsg: 'Onaylandı', CardHolderName: 'John Doe', ArtiTaksit: '0', BankInternalResponseMessage: '', PAYFORFROMXMLREQUEST: '1', SESSION_SYSTEM_USER: '0' },
    });
    // The serializer's note: "<MD>\r\n</MD>" must read as empty.
    expect(parsePayforAnswer('<PayforResponse><MbrId>5</MbrId>\r\n<MD>\r\n</MD>\r\n<ProcReturnCode>00</ProcReturnCode></PayforResponse>')).toEqual({ kind: 'response', fields: { MbrId: '5', MD: '', ProcReturnCode: '00' } });
    expect(parsePayforAnswer('<html>Service Unavailable</html>')).toBeNull();
  });

  it("decodes the history report ('test_history', shortened), one entry per transaction", () => {
    const entry = (guid: string, type: string, code: string) =>
      `<PaymentRequestExtended><PaymentRequest xmlns="http://ocean.smartway.com/"><RequestGuid>${guid}</RequestGuid><OrderId>20231228C01D</OrderId><Pan>9E3EAA293B389C4AD4B22F1B28E15ED0</Pan><PurchAmount>1.01</PurchAmount><Currency>949</Currency><Description /><TxnType>${type}</TxnType><ProcReturnCode>${code}</ProcReturnCode><VoidDate /></PaymentRequest><ExtraParameters xmlns="http://ocean.smartway.com/"><ArrayOfString><string>IsBatchClosed</string><string>True</string></ArrayOfString></ExtraParameters></PaymentRequestExtended>`;
    const text = `<?xml version="1.0" encoding="utf-8"?>\n<TxnHistoryReport xsi:noNamespaceSchemaLocation="TxnHistoryReport.xsd" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">${entry('1000000093565640', 'PreAuth', '00')}${entry('1000000093565641', 'PostAuth', '00')}</TxnHistoryReport>`;
    const answer = parsePayforAnswer(text);
    expect(answer?.kind).toBe('history');
    if (answer?.kind !== 'history') return;
    expect(answer.entries.map((e) => [e.RequestGuid, e.TxnType, e.PurchAmount, e.Description, e.VoidDate])).toEqual([
      ['1000000093565640', 'PreAuth', '1.01', '', ''],
      ['1000000093565641', 'PostAuth', '1.01', '', ''],
    ]);
  });
});

describe('PayFor answer mapping (PayForPosResponseDataMapperTest)', () => {
  const response = (fields: Record<string, string>) => ({ kind: 'response' as const, fields });

  it("reads a sale: 'success1' approved, 'fail1' M041 an invalid card number with the bank's code kept", () => {
    expect(saleResult(response({ AuthCode: 'S77788', HostRefNum: '230422096719', ProcReturnCode: '00', TransId: '202210313C0D', ErrMsg: 'Onaylandı', CardHolderName: 'John Doe' }), '202210313C0D')).toEqual({ status: 'succeeded', providerReference: '202210313C0D' });
    expect(saleResult(response({ AuthCode: '', HostRefNum: '230422097442', ProcReturnCode: 'M041', TransId: '2022103155EF', ErrMsg: 'Geçersiz kart numarası', CardHolderName: 'John Doe' }), '2022103155EF')).toEqual({
      status: 'declined',
      code: 'invalid_card_number',
      message: 'Geçersiz kart numarası',
      providerCode: 'M041',
      providerMessage: 'Geçersiz kart numarası',
    });
    // An answer about another order is no answer to this call.
    expect(saleResult(response({ ProcReturnCode: '00', TransId: '202210313C0D' }), 'another')).toBeNull();
  });

  it("reads the order inquiry: 'success1' and 'success_pay_then_cancel' found, 'fail_order_not_found' unknown", () => {
    const success = { OrderId: '202210312A24', SecureType: 'NonSecure', PurchAmount: '1.01', Currency: '949', TxnType: 'Auth', ErrMsg: 'Onaylandı', AuthCode: 'S90370', ProcReturnCode: '00', RefundedAmount: '0', IsVoided: 'false', IsRefunded: 'false' };
    expect(statusResult(response(success), { orderId: '202210312A24', amount: 101n })).toEqual({ status: 'succeeded', providerReference: '202210312A24' });
    expect(statusResult(response({ ...success, OrderId: '202401194815', VoidDate: '20240119', IsVoided: 'true' }), { orderId: '202401194815', amount: 101n })).toEqual({ status: 'succeeded', providerReference: '202401194815' });
    // Another amount than the payment's: the answer cannot say.
    expect(statusResult(response(success), { orderId: '202210312A24', amount: 100n })).toBe('retry');
    const notFound = { OrderId: '202210312A242', SecureType: 'Inquiry', TxnType: 'OrderInquiry', OrgOrderId: '202210312A242', ErrMsg: 'Seçili İşlem Bulunamadı!', ProcReturnCode: 'V013' };
    expect(statusResult(response(notFound), { orderId: '202210312A242', amount: 101n })).toEqual({ status: 'unknown' });
  });

  it("reads the history: 'success_pay_refund_fail' is a standing sale and a refund refused with V014", () => {
    const history = {
      kind: 'history' as const,
      entries: [
        { OrderId: '202401211C79', OrgOrderId: '', TxnType: 'Auth', PurchAmount: '1.01', ProcReturnCode: '00', ErrMsg: 'Onaylandı', VoidDate: '', HostRefNum: '' },
        { OrderId: '202401211C79', OrgOrderId: '202401211C79', TxnType: 'Refund', PurchAmount: '1.01', ProcReturnCode: 'V014', ErrMsg: 'Bu işlem geri alınamaz, lüften asıl işlemi iptal edin.', VoidDate: '', HostRefNum: '' },
      ],
    };
    expect(historyOf(history, '202401211C79')).toEqual({ credits: [{ amount: 101n, state: 'refused', code: 'V014', reference: '' }], sale: 'standing', complete: true });
    const notFound = { kind: 'history' as const, entries: [{ OrderId: '202401010C2022', TxnType: 'TxnHistory', ProcReturnCode: 'V013', ErrMsg: 'Seçili İşlem Bulunamadı!' }] };
    expect(historyOf(notFound, '202401010C2022')).toBe('retry');
  });

  it("judges the bank's signed 3-D answers for the payment they are about", () => {
    const payment = (orderId: string) => ({ startKey: 'k', providerReference: orderId, amount: 101n, currency: 'TRY' as const });
    const model = { account: signer, model: '3d' as const };
    const pay = { account: signer, model: '3d_pay' as const };
    expect(judgeCallback(model, payment('20221031CFD0'), ANSWERS.threeDModelSuccess)).toEqual({ status: 'verified', authenticated: true, data: { orderId: '20221031CFD0', requestGuid: '1000000081255931' } });
    expect(judgeCallback(model, payment('202210317565'), ANSWERS.threeDModelAuthFail)).toMatchObject({ status: 'verified', authenticated: false, failure: { code: '3ds_failed', providerCode: '3DStatus:-1' } });
    expect(judgeCallback(pay, payment('2022103114B3'), ANSWERS.threeDPaySuccess)).toMatchObject({ status: 'verified', authenticated: true, data: { procReturnCode: '00', hostRefNum: '230422100150' } });
    expect(judgeCallback(pay, payment('202210317223'), ANSWERS.threeDPayAuthFail)).toMatchObject({ status: 'verified', authenticated: false });
    // Signed, but another payment's order, amount, or model.
    expect(judgeCallback(model, payment('202210317565'), ANSWERS.threeDModelSuccess)).toMatchObject({ status: 'rejected', cause: 'order' });
    expect(judgeCallback(model, { ...payment('20221031CFD0'), amount: 102n }, ANSWERS.threeDModelSuccess)).toMatchObject({ status: 'rejected', cause: 'amount' });
    expect(judgeCallback(pay, payment('20221031CFD0'), ANSWERS.threeDModelSuccess)).toMatchObject({ status: 'rejected', cause: 'incomplete' });
    expect(judgeCallback(model, payment('20221031CFD0'), { ...ANSWERS.threeDModelSuccess, ResponseHash: '' })).toMatchObject({ status: 'rejected', cause: 'unsigned' });
  });
});
