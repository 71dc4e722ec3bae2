// KuveytPOS's crypt, request mapping, serialiser and answer mapping against mewebstudio/pos (MIT),
// code nobody here wrote: the vectors below are copied from its tests/Unit/Crypt/
// KuveytPosCryptTest.php, tests/Unit/DataMapper/RequestDataMapper/KuveytPosRequestDataMapperTest.php,
// tests/Unit/DataMapper/ResponseDataMapper/KuveytPosResponseDataMapperTest.php and
// tests/Unit/Serializer/KuveytPosSerializerTest.php. Its bank answers were captured from
// KuveytPOS's test system, signed with the test accounts' passwords (Api123 for shop 80, the bank's
// public api123 for shop 496), so the connector's checks and the emulator's signer both meet the
// bank's own HashData, not each other's.
import { describe, expect, it } from 'vitest';
import { requestHashOf, signCallback, signSale } from '../../emulators/kuveytpos/config.ts';
import { historyOf, reversalResult, saleResult, statusResult } from '../../src/providers/kuveytpos/answers.ts';
import { judgeCallback } from '../../src/providers/kuveytpos/callback.ts';
import { callbackHash, requestHash, saleAnswerHash, sha1Base64 } from '../../src/providers/kuveytpos/hash.ts';
import { cancelRequest, enrollmentRequest, provisionRequest, refundRequest, saleRequest, statusRequest } from '../../src/providers/kuveytpos/requests.ts';
import { authenticationResponseOf, kuveytRequestXml, parseKuveytAnswer, type KuveytAnswer, type KuveytMessage, type KuveytRequest } from '../../src/providers/kuveytpos/xml.ts';

// mewebstudio's test account (AccountFactory::createKuveytPosAccount in the tests above).
const credentials = { merchant_id: '80', customer_id: '400235', user_name: 'apiuser', password: 'Api123' };
const ctx = { credentials };

type Php = string | number | boolean | null | { [name: string]: Php } | Php[];

/** A PHP array written as the bank's XML (a list repeats its element; null is an empty element). */
function xmlOf(tree: { [name: string]: Php }): string {
  return Object.entries(tree)
    .map(([name, value]) => {
      if (Array.isArray(value)) return value.map((item) => xmlOf({ [name]: item })).join('');
      if (value === null) return `<${name}/>`;
      if (typeof value === 'object') return `<${name}>${xmlOf(value)}</${name}>`;
      return `<${name}>${String(value)}</${name}>`;
    })
    .join('');
}

const contract = (tree: { [name: string]: Php }): KuveytAnswer => parseKuveytAnswer(`<?xml version="1.0" encoding="utf-8"?><VPosTransactionResponseContract>${xmlOf(tree)}</VPosTransactionResponseContract>`)!;
const soap = (tree: { [name: string]: Php }): KuveytAnswer => parseKuveytAnswer(`<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>${xmlOf(tree)}</s:Body></s:Envelope>`)!;

/** mewebstudio's request arrays hold PHP ints and booleans; the bank gets their text ("1" for true). */
function asSent(value: Php): KuveytMessage | string {
  if (value === true) return '1';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return value;
  return Object.fromEntries(Object.entries(value as Record<string, Php>).map(([k, v]) => [k, asSent(v)]));
}

/** The request's message with the hash mewebstudio's mocked crypt puts there. */
function withHash(request: KuveytRequest, hash: string): KuveytMessage {
  const message = request.kind === 'message' ? request.message : request.request;
  if (request.kind === 'message') return { ...message, HashData: hash };
  return { ...message, VPosMessage: { ...(message.VPosMessage as KuveytMessage), HashData: hash } };
}

// Signed answers captured from KuveytPOS (the fields the hashes cover).
const TDV2_CALLBACK = { MerchantOrderId: '2024042111A0', ResponseCode: '00', OrderId: '155767806', HashData: 'dlO20ZLqs4W5FfgY0VmUSBUpwoM=' };
const TDV2_PROVISION = { MerchantOrderId: '2024042111A0', RRN: '411219539222', ResponseCode: '00', OrderId: '155767806', HashData: 'N7zs7LHEy3lx6N2nb0FUG2UcnUw=' };
const SALE_SUCCESS1 = { MerchantOrderId: '660723214', RRN: '904115005554', ResponseCode: '00', OrderId: '4480', HashData: 'I7H/6nwfydM6VcwXsl82mqeC83o=' };

describe('KuveytPOS crypt (KuveytPosCryptTest)', () => {
  it('hashes as the bank does, and signs requests in the connector and the emulator alike', () => {
    expect(sha1Base64('123')).toBe('QL0AFWMIX8NRZTKeof9cXsvbvu8=');
    const plain = { MerchantId: '80', UserName: 'apiuser', MerchantOrderId: 'ORDER-123', Amount: '7256' };
    const withUrls = { ...plain, OkUrl: 'http://localhost:44785/Home/Success', FailUrl: 'http://localhost:44785/Home/Fail' };
    expect(requestHash(plain, 'Api123')).toBe('Bf+hZf2c1gf1pTXnEaSGxDpGRr0=');
    expect(requestHash(withUrls, 'Api123')).toBe('P3a0zjAklu2g8XDJfTx2qvwHH8g=');
    expect(requestHashOf((name) => (plain as Record<string, string>)[name] ?? '', 'Api123')).toBe('Bf+hZf2c1gf1pTXnEaSGxDpGRr0=');
    expect(requestHashOf((name) => (withUrls as Record<string, string>)[name] ?? '', 'Api123')).toBe('P3a0zjAklu2g8XDJfTx2qvwHH8g=');
  });

  it("checks the bank's signed callback and sale answers, and the emulator signs them the same", () => {
    expect(callbackHash(TDV2_CALLBACK, 'api123')).toBe(TDV2_CALLBACK.HashData);
    expect(signCallback(TDV2_CALLBACK, 'api123')).toBe(TDV2_CALLBACK.HashData);
    expect(saleAnswerHash(TDV2_PROVISION, 'api123')).toBe(TDV2_PROVISION.HashData);
    expect(signSale(TDV2_PROVISION, 'api123')).toBe(TDV2_PROVISION.HashData);
    expect(saleAnswerHash(SALE_SUCCESS1, 'Api123')).toBe(SALE_SUCCESS1.HashData);
    expect(signSale(SALE_SUCCESS1, 'Api123')).toBe(SALE_SUCCESS1.HashData);
    expect(callbackHash({ ...TDV2_CALLBACK, ResponseCode: '01' }, 'api123')).not.toBe(TDV2_CALLBACK.HashData);
  });
});

describe('KuveytPOS request mapping (KuveytPosRequestDataMapperTest)', () => {
  const card = { holderName: 'John Doe', number: '4155650100416111', securityCode: '123', expiryMonth: '01', expiryYear: '2025' };
  const sale = { merchantOrderId: '2023070849CD', orderId: '114293600', rrn: '318923298433', stan: '298433', provision: '241839' };
  const soapFrame = { IsFromExternalNetwork: true, BusinessKey: 0, ResourceId: 0, ActionId: 0, LanguageId: 0, CustomerId: '400235', MailOrTelephoneOrder: true };
  const vposHead = { APIVersion: 'TDV2.0.0', InstallmentMaturityCommisionFlag: 0, HashData: 'request-hash', MerchantId: '80', SubMerchantId: 0, CustomerId: '400235', UserName: 'apiuser', CardType: 'Visa', BatchID: 0 };
  const vposTail = { FECAmount: 0, QeryId: 0, DebtId: 0, SurchargeAmount: 0, SGKDebtAmount: 0, TransactionSecurity: 1 };

  it('maps the 3-D enrollment (create3DEnrollmentCheckRequestData)', () => {
    const request = enrollmentRequest({ merchantOrderId: '2020110828BC', amount: 1001n, currency: 'TRY', installmentNumber: 1, card, okUrl: 'http://localhost/finansbank-payfor/3d/success.php', failUrl: 'http://localhost/finansbank-payfor/3d/fail.php', clientIp: '127.0.0.1' }, ctx);
    expect(withHash(request, 'request-3d-hash')).toEqual(
      asSent({ APIVersion: 'TDV2.0.0', MerchantId: '80', UserName: 'apiuser', CustomerId: '400235', HashData: 'request-3d-hash', TransactionType: 'Sale', TransactionSecurity: '3', InstallmentCount: '0', Amount: 1001, DisplayAmount: 1001, CurrencyCode: '0949', MerchantOrderId: '2020110828BC', OkUrl: 'http://localhost/finansbank-payfor/3d/success.php', FailUrl: 'http://localhost/finansbank-payfor/3d/fail.php', CardHolderName: 'John Doe', CardNumber: '4155650100416111', CardType: 'Visa', CardExpireDateYear: '25', CardExpireDateMonth: '01', CardCVV2: '123', DeviceData: { ClientIP: '127.0.0.1' } }),
    );
    expect(request.kind === 'message' && request.message.HashData).toBe(requestHash({ MerchantId: '80', MerchantOrderId: '2020110828BC', Amount: '1001', OkUrl: 'http://localhost/finansbank-payfor/3d/success.php', FailUrl: 'http://localhost/finansbank-payfor/3d/fail.php', UserName: 'apiuser' }, 'Api123'));
  });

  it('maps the provision (create3DPaymentRequestData) and the sale without 3-D', () => {
    const provision = provisionRequest({ merchantOrderId: '2020110828BC', amount: 100n, currency: 'TRY', installmentNumber: 1, md: '67YtBfBRTZ0XBKnAHi8c/A==', clientIp: '127.0.0.1' }, ctx);
    expect(withHash(provision, 'request-hash')).toEqual(
      asSent({ APIVersion: 'TDV2.0.0', HashData: 'request-hash', MerchantId: '80', CustomerId: '400235', UserName: 'apiuser', CustomerIPAddress: '127.0.0.1', KuveytTurkVPosAdditionalData: { AdditionalData: { Key: 'MD', Data: '67YtBfBRTZ0XBKnAHi8c/A==' } }, TransactionType: 'Sale', InstallmentCount: '0', Amount: '100', DisplayAmount: '100', CurrencyCode: '0949', MerchantOrderId: '2020110828BC', TransactionSecurity: '3' }),
    );
    const plain = saleRequest({ merchantOrderId: '2020110828BC', amount: 110n, currency: 'TRY', installmentNumber: 1, card }, ctx);
    expect(withHash(plain, 'request-hash')).toEqual(
      asSent({ APIVersion: 'TDV2.0.0', Amount: 110, CardCVV2: '123', CardExpireDateMonth: '01', CardExpireDateYear: '25', CardHolderName: 'John Doe', CardNumber: '4155650100416111', CurrencyCode: '0949', CustomerId: '400235', DisplayAmount: 110, HashData: 'request-hash', InstallmentCount: '0', MerchantId: '80', MerchantOrderId: '2020110828BC', TransactionSecurity: '1', TransactionType: 'Sale', UserName: 'apiuser' }),
    );
  });

  it('maps the cancel, the full and partial refunds and the order inquiry', () => {
    const saleHead = (amount: number) => ({ ...soapFrame, Amount: amount, MerchantId: '80', OrderId: '114293600', RRN: '318923298433', Stan: '298433', ProvisionNumber: '241839' });
    const cancel = cancelRequest({ sale, amount: 101n, currencyCode: '0949' }, ctx);
    expect(cancel.kind === 'soap' && cancel.action).toBe('SaleReversal');
    expect(withHash(cancel, 'request-hash')).toEqual(asSent({ ...saleHead(101), VPosMessage: { ...vposHead, TransactionType: 'SaleReversal', InstallmentCount: 0, Amount: 101, DisplayAmount: 101, CancelAmount: 101, MerchantOrderId: '2023070849CD', CurrencyCode: '0949', ...vposTail } }));
    const full = refundRequest({ sale, amount: 101n, currencyCode: '0949', whole: true }, ctx);
    expect(full.kind === 'soap' && full.action).toBe('DrawBack');
    expect(withHash(full, 'request-hash')).toEqual(asSent({ ...saleHead(101), VPosMessage: { ...vposHead, TransactionType: 'DrawBack', InstallmentCount: 0, Amount: 101, DisplayAmount: 0, CancelAmount: 101, MerchantOrderId: '2023070849CD', CurrencyCode: '0949', ...vposTail } }));
    const partial = refundRequest({ sale, amount: 901n, currencyCode: '0949', whole: false }, ctx);
    expect(partial.kind === 'soap' && partial.action).toBe('PartialDrawback');
    expect(withHash(partial, 'request-hash')).toEqual(asSent({ ...saleHead(901), VPosMessage: { ...vposHead, TransactionType: 'PartialDrawback', InstallmentCount: 0, Amount: 901, DisplayAmount: 0, CancelAmount: 901, MerchantOrderId: '2023070849CD', CurrencyCode: '0949', ...vposTail } }));
    const status = statusRequest({ merchantOrderId: '2023070849CD', currencyCode: '0949', now: new Date('2023-07-07T19:44:31Z') }, ctx);
    expect(withHash(status, 'request-hash')).toEqual(
      asSent({ ...soapFrame, Amount: 0, MerchantId: '80', OrderId: 0, TransactionType: 0, MerchantOrderId: '2023070849CD', StartDate: '2022-07-12T22:44:31', EndDate: '2023-07-08T22:44:31', VPosMessage: { ...vposHead, TransactionType: 'GetMerchantOrderDetail', InstallmentCount: 0, Amount: 0, DisplayAmount: 0, CancelAmount: 0, MerchantOrderId: '2023070849CD', CurrencyCode: '0949', ...vposTail } }),
    );
  });
});

describe('KuveytPOS serialiser (KuveytPosSerializerTest)', () => {
  const sale = { merchantOrderId: '2023070849CD', orderId: '114293600', rrn: '318923298433', stan: '298433', provision: '241839' };
  const hashed = (request: KuveytRequest): KuveytRequest => (request.kind === 'soap' ? { ...request, request: withHash(request, 'request-hash') } : request);

  it('writes the refunds as SOAP calls byte for byte, and a payment message with its declaration', () => {
    const full = hashed(refundRequest({ sale, amount: 101n, currencyCode: '0949', whole: true }, ctx));
    expect(kuveytRequestXml(full)).toBe(
      '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ser="http://boa.net/BOA.Integration.VirtualPos/Service"><soapenv:Body><ser:DrawBack><ser:request><ser:IsFromExternalNetwork>1</ser:IsFromExternalNetwork><ser:BusinessKey>0</ser:BusinessKey><ser:ResourceId>0</ser:ResourceId><ser:ActionId>0</ser:ActionId><ser:LanguageId>0</ser:LanguageId><ser:CustomerId>400235</ser:CustomerId><ser:MailOrTelephoneOrder>1</ser:MailOrTelephoneOrder><ser:Amount>101</ser:Amount><ser:MerchantId>80</ser:MerchantId><ser:OrderId>114293600</ser:OrderId><ser:RRN>318923298433</ser:RRN><ser:Stan>298433</ser:Stan><ser:ProvisionNumber>241839</ser:ProvisionNumber><ser:VPosMessage><ser:APIVersion>TDV2.0.0</ser:APIVersion><ser:InstallmentMaturityCommisionFlag>0</ser:InstallmentMaturityCommisionFlag><ser:HashData>request-hash</ser:HashData><ser:MerchantId>80</ser:MerchantId><ser:SubMerchantId>0</ser:SubMerchantId><ser:CustomerId>400235</ser:CustomerId><ser:UserName>apiuser</ser:UserName><ser:CardType>Visa</ser:CardType><ser:BatchID>0</ser:BatchID><ser:TransactionType>DrawBack</ser:TransactionType><ser:InstallmentCount>0</ser:InstallmentCount><ser:Amount>101</ser:Amount><ser:DisplayAmount>0</ser:DisplayAmount><ser:CancelAmount>101</ser:CancelAmount><ser:MerchantOrderId>2023070849CD</ser:MerchantOrderId><ser:FECAmount>0</ser:FECAmount><ser:CurrencyCode>0949</ser:CurrencyCode><ser:QeryId>0</ser:QeryId><ser:DebtId>0</ser:DebtId><ser:SurchargeAmount>0</ser:SurchargeAmount><ser:SGKDebtAmount>0</ser:SGKDebtAmount><ser:TransactionSecurity>1</ser:TransactionSecurity></ser:VPosMessage></ser:request></ser:DrawBack></soapenv:Body></soapenv:Envelope>',
    );
    const partial = hashed(refundRequest({ sale, amount: 901n, currencyCode: '0949', whole: false }, ctx));
    expect(kuveytRequestXml(partial)).toBe(
      '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ser="http://boa.net/BOA.Integration.VirtualPos/Service"><soapenv:Body><ser:PartialDrawback><ser:request><ser:IsFromExternalNetwork>1</ser:IsFromExternalNetwork><ser:BusinessKey>0</ser:BusinessKey><ser:ResourceId>0</ser:ResourceId><ser:ActionId>0</ser:ActionId><ser:LanguageId>0</ser:LanguageId><ser:CustomerId>400235</ser:CustomerId><ser:MailOrTelephoneOrder>1</ser:MailOrTelephoneOrder><ser:Amount>901</ser:Amount><ser:MerchantId>80</ser:MerchantId><ser:OrderId>114293600</ser:OrderId><ser:RRN>318923298433</ser:RRN><ser:Stan>298433</ser:Stan><ser:ProvisionNumber>241839</ser:ProvisionNumber><ser:VPosMessage><ser:APIVersion>TDV2.0.0</ser:APIVersion><ser:InstallmentMaturityCommisionFlag>0</ser:InstallmentMaturityCommisionFlag><ser:HashData>request-hash</ser:HashData><ser:MerchantId>80</ser:MerchantId><ser:SubMerchantId>0</ser:SubMerchantId><ser:CustomerId>400235</ser:CustomerId><ser:UserName>apiuser</ser:UserName><ser:CardType>Visa</ser:CardType><ser:BatchID>0</ser:BatchID><ser:TransactionType>PartialDrawback</ser:TransactionType><ser:InstallmentCount>0</ser:InstallmentCount><ser:Amount>901</ser:Amount><ser:DisplayAmount>0</ser:DisplayAmount><ser:CancelAmount>901</ser:CancelAmount><ser:MerchantOrderId>2023070849CD</ser:MerchantOrderId><ser:FECAmount>0</ser:FECAmount><ser:CurrencyCode>0949</ser:CurrencyCode><ser:QeryId>0</ser:QeryId><ser:DebtId>0</ser:DebtId><ser:SurchargeAmount>0</ser:SurchargeAmount><ser:SGKDebtAmount>0</ser:SGKDebtAmount><ser:TransactionSecurity>1</ser:TransactionSecurity></ser:VPosMessage></ser:request></ser:PartialDrawback></soapenv:Body></soapenv:Envelope>',
    );
    expect(kuveytRequestXml({ kind: 'message', message: { abc: '1', abc2: { abc3: '3' } } })).toBe('<?xml version="1.0" encoding="ISO-8859-1"?>\n<KuveytTurkVPosMessage><abc>1</abc><abc2><abc3>3</abc3></abc2></KuveytTurkVPosMessage>\n');
  });

  it("reads the gate's HTML forms: the ACS's, the 3-D server's and a refusal sent back to FailUrl", () => {
    const gate = parseKuveytAnswer(HTML.toGate);
    expect(gate).toEqual({ kind: 'form', action: 'https://boa.kuveytturk.com.tr/sanalposservice/Home/ThreeDModelPayGate', inputs: { AuthenticationResponse: expect.stringMatching(/^%3C%3Fxml/) as unknown } });
    expect(parseKuveytAnswer(HTML.threeDsServer)).toEqual({
      kind: 'form',
      action: 'https://certemvtds.bkm.com.tr/tds/resultFlow',
      inputs: { threeDSServerWebFlowStart: 'eyJhbGciOiJIUzI1NiJ9.ewogICJ0aHJlZURTU2VydmVyV2ViRmxvd1N0YXJ0IiA6IHsKfQ.w7KQvGhrujSZmzyqEBsqJJKb19vJo16pq_PssXcGc6k', browserColorDepth: '', browserScreenHeight: '', browserScreenWidth: '', browserTZ: '', browserJavascriptEnabled: '', browserJavaEnabled: '' },
    });
    for (const [html, action, code] of [
      [HTML.hashDataError, 'http://localhost/finansbank-payfor/3d/response.php', 'HashDataError'],
      [HTML.ipError, 'https://site/gateway/3d/fail?uuid=BR7z5PDu6c', 'PosMerchantIPError'],
    ] as const) {
      const form = parseKuveytAnswer(html);
      expect(form).toMatchObject({ kind: 'form', action });
      const refusal = form?.kind === 'form' ? authenticationResponseOf(form.inputs.AuthenticationResponse!) : null;
      expect(refusal?.fields).toMatchObject({ ResponseCode: code, OrderId: '0' });
      expect(refusal?.fields.HashData).toBeUndefined();
    }
  });

  it('reads a contract and the SOAP answers (decodeXML, decodeJson)', () => {
    const auth = parseKuveytAnswer(XML.authentication);
    expect(auth).toMatchObject({ kind: 'contract', fields: { ResponseCode: '00', MD: '67YtBfBRTZ0XBKnAHi8c/A==', OrderId: '0' }, echo: { CardHolderName: 'ğĞüÜşŞiİöÖÇçüÜ', Amount: '100', CurrencyCode: '0949', TransactionSecurity: '3' } });
    expect(parseKuveytAnswer(XML.cancelRefused)).toEqual({ kind: 'soap', operation: 'SaleReversal', result: { errors: [{ code: 'InvalidRequestError', message: 'İptal işlemi satışla aynı gün yapılmalıdır. Geçmiş tarihli işlem için iade yapınız.' }], value: expect.objectContaining({ ResponseCode: 'DbLayerError', OrderId: '0' }) as unknown, orders: [] } });
    const status = parseKuveytAnswer(XML.status);
    expect(status).toMatchObject({ kind: 'soap', operation: 'GetMerchantOrderDetail', result: { errors: [], orders: [{ OrderId: '302704156', MerchantOrderId: '20260209089B', LastOrderStatus: '6', FirstAmount: '10.01', CancelAmount: '10.01', FEC: '0949' }] } });
    expect(parseKuveytAnswer('')).toBeNull();
    expect(parseKuveytAnswer('<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultstring>x</faultstring></s:Fault></s:Body></s:Envelope>')).toBeNull();
  });
});

describe('KuveytPOS answer mapping (KuveytPosResponseDataMapperTest)', () => {
  it("reads a sale's and a provision's answers; an approved one counts only when its HashData checks", () => {
    const success1 = contract({ VPosMessage: { OrderId: '4480', MerchantId: '80', CardNumber: '5124********1609', BatchID: '1906', InstallmentCount: '0', Amount: '100', MerchantOrderId: '660723214', CurrencyCode: '949', TransactionSecurity: '0' }, IsEnrolled: 'true', ProvisionNumber: '896626', RRN: '904115005554', Stan: '005554', ResponseCode: '00', ResponseMessage: 'OTORİZASYON VERİLDİ', OrderId: '4480', TransactionTime: '0001-01-01T00:00:00', MerchantOrderId: '660723214', HashData: 'I7H/6nwfydM6VcwXsl82mqeC83o=' });
    expect(saleResult(success1, { merchantOrderId: '660723214', amount: 100n, currency: '949' }, 'Api123')).toEqual({ status: 'succeeded', providerReference: '660723214:4480:904115005554:005554:896626:100:949' });
    expect(saleResult(success1, { merchantOrderId: '660723214', amount: 100n, currency: '949' }, 'wrong')).toBeNull();
    expect(saleResult(success1, { merchantOrderId: 'another', amount: 100n, currency: '949' }, 'Api123')).toBeNull();
    const provision = contract({ IsEnrolled: 'true', ProvisionNumber: '050560', RRN: '411219539222', Stan: '539222', ResponseCode: '00', ResponseMessage: 'OTORİZASYON VERİLDİ', OrderId: '155767806', TransactionTime: '2024-04-21T19:01:28.95', MerchantOrderId: '2024042111A0', HashData: 'N7zs7LHEy3lx6N2nb0FUG2UcnUw=', MerchantId: null, BusinessKey: '202404219999000000009042173' });
    expect(saleResult(provision, { merchantOrderId: '2024042111A0', amount: 101n, currency: '949' }, 'api123')).toMatchObject({ status: 'succeeded', providerReference: '2024042111A0:155767806:411219539222:539222:050560:101:949' });
    const fail1 = contract({ IsEnrolled: 'true', IsVirtual: 'false', ResponseCode: 'MetaDataNotFound', ResponseMessage: 'Ödeme detayı bulunamadı.', OrderId: '0', TransactionTime: '0001-01-01T00:00:00', BusinessKey: '0' });
    expect(saleResult(fail1, { merchantOrderId: 'MP-15', amount: 10n, currency: '949' }, 'x')).toMatchObject({ status: 'error', code: 'provider_error', providerCode: 'MetaDataNotFound', providerMessage: 'Ödeme detayı bulunamadı.' });
    expect(saleResult(contract({ IsEnrolled: 'false', ResponseCode: 'EmptyMDException', ResponseMessage: 'Geçerli bir MD değeri giriniz.', OrderId: '0' }), { merchantOrderId: 'x', amount: 1n, currency: '949' }, 'x')).toMatchObject({ status: 'error', providerCode: 'EmptyMDException' });
  });

  it('reads refund and cancel answers', () => {
    const drawback = (operation: string, value: { [name: string]: Php }, results: Php = []) => soap({ [`${operation}Response`]: { [`${operation}Result`]: { Results: Array.isArray(results) && results.length === 0 ? null : { Result: results }, Success: true, Value: value } } });
    const partialOk = drawback('PartialDrawback', { ProvisionNumber: '241859', RRN: '319014298463', Stan: '298463', ResponseCode: '00', ResponseMessage: 'OTORİZASYON VERİLDİ', OrderId: 114293626, MerchantOrderId: '202307091285', CurrencyCode: '0949' });
    expect(reversalResult(partialOk, '202307091285')).toEqual({ status: 'succeeded', providerReference: '202307091285:319014298463' });
    const fullOk = drawback('DrawBack', { ProvisionNumber: '050823', RRN: '411415539590', Stan: '539590', ResponseCode: '00', OrderId: 155767855, MerchantOrderId: '202404229EAC', CurrencyCode: '0949' });
    expect(reversalResult(fullOk, '202404229EAC')).toMatchObject({ status: 'succeeded' });
    const cancelledSale = drawback('PartialDrawback', { RRN: '319013298460', Stan: '298460', ResponseCode: '28', ResponseMessage: 'İptal Edilen İşlem İade Yapılamaz', OrderId: 114293625, MerchantOrderId: '202307093C2D', CurrencyCode: '0949' });
    expect(reversalResult(cancelledSale, '202307093C2D')).toEqual({ status: 'declined', code: 'refund_rejected', message: 'İptal Edilen İşlem İade Yapılamaz', providerCode: '28', providerMessage: 'İptal Edilen İşlem İade Yapılamaz' });
    const sameDay = drawback('PartialDrawback', { ResponseCode: 'DbLayerError', OrderId: 0 }, [{ ErrorMessage: 'Kısmi iade işlemi, satışla aynı gün içerisindeyse tutarın tamamı için yapılamaz. Tutarın tamamı için iptal işlemi yapabilirsiniz.', IsFriendly: true, Severity: 'BusinessError' }]);
    expect(reversalResult(sameDay, 'x')).toMatchObject({ status: 'declined', code: 'refund_rejected', providerCode: 'DbLayerError', providerMessage: expect.stringContaining('aynı gün') as unknown });
    expect(reversalResult(drawback('PartialDrawback', { OrderId: 0, BusinessKey: '202307099999000000003252739' }), 'x')).toBeNull();
    const cancelOk = drawback('SaleReversal', { ProvisionNumber: '241839', RRN: '318923298433', Stan: '298433', ResponseCode: '00', OrderId: '114293600', MerchantOrderId: '2023070849CD', CurrencyCode: '0949' });
    expect(reversalResult(cancelOk, '2023070849CD')).toMatchObject({ status: 'succeeded' });
    const already = drawback('SaleReversal', { ResponseCode: 'DbLayerError', OrderId: 0 }, [{ ErrorMessage: 'İşlem daha önce iptal edilmiştir.', ErrorCode: '21' }, { ErrorMessage: 'İşleminizi şu an gerçekleştiremiyoruz', ErrorCode: 'IntegrationFatalException' }]);
    expect(reversalResult(already, 'x')).toMatchObject({ status: 'declined', code: 'refund_rejected', providerCode: '21', providerMessage: 'İşlem daha önce iptal edilmiştir.' });
    const unavailable = parseKuveytAnswer(XML.refundUnavailable)!;
    expect(reversalResult(unavailable, 'x')).toMatchObject({ status: 'error', code: 'provider_error', providerCode: 'ServiceUnavailable' });
  });

  it('reads the order inquiry for a lost sale, a lost refund and a lost cancel', () => {
    const inquiry = (order: { [name: string]: Php } | null, results: Php[] = []) =>
      soap({ GetMerchantOrderDetailResponse: { GetMerchantOrderDetailResult: { Results: results.length === 0 ? null : { Result: results }, Success: results.length === 0, Value: order === null ? null : { OrderContract: order } } } });
    const order = (lastStatus: number, cancel: string, drawback: string) => ({ OrderId: 155768281, MerchantOrderId: '20240424C7A5', MerchantId: 496, CardNumber: '518896******2544', OrderDate: '2024-04-24T16:03:42.07', OrderStatus: 1, LastOrderStatus: lastStatus, OrderType: 1, TransactionStatus: 1, FirstAmount: '10.01', CancelAmount: cancel, DrawbackAmount: drawback, ClosedAmount: '0.00', FEC: '0949', InstallmentCount: 0, TransactionSecurity: 3, ResponseCode: '00', ResponseExplain: 'İşlem gerçekleştirildi.', ProvNumber: '050990', RRN: '411516539768', Stan: '539768' });
    const expected = { merchantOrderId: '20240424C7A5', amount: 1001n, currency: '949' };
    const paid = inquiry(order(1, '0.00', '0.00'));
    expect(statusResult(paid, expected)).toEqual({ status: 'succeeded', providerReference: '20240424C7A5:155768281:411516539768:539768:050990:1001:949' });
    expect(statusResult(paid, { ...expected, amount: 1000n })).toBe('retry');
    expect(statusResult(inquiry(null), expected)).toEqual({ status: 'unknown' });
    expect(statusResult(inquiry(null, [{ ErrorMessage: 'Şifrelenen veriler (Hashdata) uyuşmamaktadır.', ErrorCode: 'HashDataError' }]), expected)).toBe('retry');

    const lost = { idempotencyKey: 'refund:r1', providerReference: 'x', amount: 1001n, currency: 'TRY' as const, otherRefunds: [] };
    expect(historyOf(paid, '20240424C7A5', lost)).toEqual({ credits: [], sale: 'standing', complete: true });
    const refunded = inquiry(order(4, '0.00', '10.01'));
    expect(historyOf(refunded, '20240424C7A5', lost)).toEqual({ credits: [{ amount: 1001n, state: 'approved', code: '00', reference: '' }], sale: 'standing', complete: true });
    expect(historyOf(inquiry(order(6, '10.01', '0.00')), '20240424C7A5', lost)).toMatchObject({ sale: 'voided' });
    expect(historyOf(parseKuveytAnswer(XML.status)!, '20260209089B', lost)).toMatchObject({ sale: 'voided', credits: [] });
  });

  it("judges the bank's signed 3-D callback, and refuses its unsigned or altered ones", () => {
    const xml = `<?xml version="1.0" encoding="utf-8"?><VPosTransactionResponseContract>${xmlOf({ VPosMessage: { OrderId: '155767806', MerchantId: '496', SubMerchantId: '0', CustomerId: '400235', CardNumber: '51889619****2544', BatchID: '545', InstallmentCount: '0', Amount: '101', MerchantOrderId: '2024042111A0', CurrencyCode: '949', TransactionSecurity: '3' }, IsEnrolled: 'true', ResponseCode: '00', ResponseMessage: 'Kart doğrulandı.', OrderId: '155767806', MerchantOrderId: '2024042111A0', HashData: 'dlO20ZLqs4W5FfgY0VmUSBUpwoM=', MD: 'KdipxuB/+AncDNdIKzh5uRh4flnYqSp3drh/2yzaOQraHWjGF+NOkvSjYzbQtRQn' })}</VPosTransactionResponseContract>`;
    const account = { merchantId: '496', password: 'api123' };
    const payment = { startKey: 'p:authorise', providerReference: '2024042111A0', amount: 101n, currency: 'TRY' as const };
    const posted = { AuthenticationResponse: encodeURIComponent(xml) };
    expect(judgeCallback(account, payment, posted)).toEqual({ status: 'verified', authenticated: true, data: { merchantOrderId: '2024042111A0', md: 'KdipxuB/+AncDNdIKzh5uRh4flnYqSp3drh/2yzaOQraHWjGF+NOkvSjYzbQtRQn' } });
    expect(judgeCallback(account, { ...payment, amount: 100n }, posted)).toMatchObject({ status: 'rejected', cause: 'amount' });
    expect(judgeCallback(account, { ...payment, providerReference: '2024042111A1' }, posted)).toMatchObject({ status: 'rejected', cause: 'order' });
    expect(judgeCallback({ ...account, password: 'api124' }, payment, posted)).toMatchObject({ status: 'rejected', cause: 'signature' });
    expect(judgeCallback(account, payment, { AuthenticationResponse: encodeURIComponent(xml.replace('<ResponseCode>00<', '<ResponseCode>01<')) })).toMatchObject({ status: 'rejected', cause: 'signature' });
    const unsigned = parseKuveytAnswer(HTML.hashDataError);
    expect(judgeCallback(account, payment, unsigned?.kind === 'form' ? { ...unsigned.inputs } : {})).toMatchObject({ status: 'rejected', cause: 'unsigned' });
  });
});

// KuveytPosSerializerTest's documents, as published, the long ones shortened (the 3-D server's token, the echoed request): nothing read from them is changed.
const HTML = {
  toGate:
    '<!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head runat="server"><title></title></head><body onload="OnLoadEvent();"><form name="downloadForm" action="https://boa.kuveytturk.com.tr/sanalposservice/Home/ThreeDModelPayGate" method="POST"><input type="hidden" name="AuthenticationResponse" value="%3C%3Fxml+version%3D%221.0%22+encoding%3D%22UTF-8%22%3F%3E%3CVPosTransactionResponseContract%3E%3CVPosMessage%3E%3CAPIVersion%3E1.0.0%3C%2FAPIVersion%3E%3COkUrl%3Ehttp%3A%2F%2Flocalhost%3A44785%2FHome%2FSuccess%3C%2FOkUrl%3E%3CMerchantId%3E80%3C%2FMerchantId%3E%3CAmount%3E100%3C%2FAmount%3E%3CMerchantOrderId%3EOrder+123%3C%2FMerchantOrderId%3E%3C%2FVPosMessage%3E%3CResponseCode%3E00%3C%2FResponseCode%3E%3CMD%3E67YtBfBRTZ0XBKnAHi8c%2FA%3D%3D%3C%2FMD%3E%3C%2FVPosTransactionResponseContract%3E"><noscript><center>Please click the submit button below.<br><input type="submit" name="submit" value="Submit"></center></noscript></form><script language="Javascript">function OnLoadEvent() {document.downloadForm.submit();}</script></body></html>',
  threeDsServer:
    "<!DOCTYPE html SYSTEM 'about:legacy-compat'>\n<html class='no-js' lang='en' xmlns='http://www.w3.org/1999/xhtml'>\n<head>\n<meta http-equiv='Content-Type' content='text/html; charset=utf-8'/>\n<title>3D Secure Processing</title>\n</head>\n<body>\n<div id='formdiv'>\n<script type='text/javascript'>\nfunction hideAndSubmitTimed(formid)\n{\nvar timer=setTimeout(function() {hideAndSubmit(formid)},10);\n}\n</script>\n<form id='threeDSServerWebFlowStartForm' name='threeDSServerWebFlowStartForm' method='POST' action='https://certemvtds.bkm.com.tr/tds/resultFlow'>\n<input type='hidden' name='threeDSServerWebFlowStart' value='eyJhbGciOiJIUzI1NiJ9.ewogICJ0aHJlZURTU2VydmVyV2ViRmxvd1N0YXJ0IiA6IHsKfQ.w7KQvGhrujSZmzyqEBsqJJKb19vJo16pq_PssXcGc6k'/>\n<input type='hidden' name='browserColorDepth' value=''/>\n<input type='hidden' name='browserScreenHeight' value=''/>\n<input type='hidden' name='browserScreenWidth' value=''/>\n<input type='hidden' name='browserTZ' value=''/>\n<input type='hidden' name='browserJavascriptEnabled' value=''/>\n<input type='hidden' name='browserJavaEnabled' value=''/>\n<script type='text/javascript'>\nhideAndSubmitTimed('threeDSServerWebFlowStartForm');\n</script>\n<input type='submit' name='submitBtn' value='Please click here to continue'/>\n</form>\n</div>\n</body>\n</html>\n",
  hashDataError:
    '<!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head runat="server">    <title></title></head><body onload="OnLoadEvent();">    <form name="downloadForm"        action="http://localhost/finansbank-payfor/3d/response.php"        method="POST">         <input type="hidden"  name="AuthenticationResponse" value="%3c%3fxml+version%3d%221.0%22+encoding%3d%22utf-8%22%3f%3e%3cVPosTransactionResponseContract+xmlns%3axsd%3d%22http%3a%2f%2fwww.w3.org%2f2001%2fXMLSchema%22+xmlns%3axsi%3d%22http%3a%2f%2fwww.w3.org%2f2001%2fXMLSchema-instance%22%3e%3cIsEnrolled%3etrue%3c%2fIsEnrolled%3e%3cIsVirtual%3efalse%3c%2fIsVirtual%3e%3cResponseCode%3eHashDataError%3c%2fResponseCode%3e%3cResponseMessage%3e%c5%9eifrelenen+veriler+(Hashdata)+uyu%c5%9fmamaktad%c4%b1r.%3c%2fResponseMessage%3e%3cOrderId%3e0%3c%2fOrderId%3e%3cTransactionTime%3e0001-01-01T00%3a00%3a00%3c%2fTransactionTime%3e%3cMerchantOrderId%3e2020110828BC%3c%2fMerchantOrderId%3e%3cReferenceId%3efbab348b4c074d1b9a5247471d91f5d1%3c%2fReferenceId%3e%3cMerchantId%3e496%3c%2fMerchantId%3e%3cBusinessKey%3e0%3c%2fBusinessKey%3e%3c%2fVPosTransactionResponseContract%3e">        <!-- To support javascript unaware/disabled browsers -->        <noscript>    <center>Please click the submit button below.<br>    <input type="submit" name="submit" value="Submit"></center>  </noscript>    </form>    <script language="Javascript">         function OnLoadEvent() {document.downloadForm.submit();}   </script></body></html>',
  ipError:
    '<!DOCTYPE html>\n    <html xmlns="http://www.w3.org/1999/xhtml">\n    <head runat="server">\n        <APM_DO_NOT_TOUCH>\n\n            <script type="text/javascript">\n                /** there are scripts here, but I removed them. */\n            </script>\n        </APM_DO_NOT_TOUCH>\n        <title></title></head>\n    <body onload="OnLoadEvent();">\n    <form name="downloadForm" action="https://site/gateway/3d/fail?uuid=BR7z5PDu6c" method="POST"><input\n            type="hidden" name="AuthenticationResponse"\n            value="%3c%3fxml+version%3d%221.0%22+encoding%3d%22utf-8%22%3f%3e%3cVPosTransactionResponseContract+xmlns%3axsd%3d%22http%3a%2f%2fwww.w3.org%2f2001%2fXMLSchema%22+xmlns%3axsi%3d%22http%3a%2f%2fwww.w3.org%2f2001%2fXMLSchema-instance%22%3e%3cIsEnrolled%3etrue%3c%2fIsEnrolled%3e%3cIsVirtual%3efalse%3c%2fIsVirtual%3e%3cResponseCode%3ePosMerchantIPError%3c%2fResponseCode%3e%3cResponseMessage%3eIP+adresi+tan%c4%b1ml%c4%b1+de%c4%9fildir.%3c%2fResponseMessage%3e%3cOrderId%3e0%3c%2fOrderId%3e%3cTransactionTime%3e0001-01-01T00%3a00%3a00%3c%2fTransactionTime%3e%3cMerchantOrderId%3eEak3mC1eW5%3c%2fMerchantOrderId%3e%3cReferenceId%3ea92e57f52ac443538bdb71b10a6c6fe7%3c%2fReferenceId%3e%3cMerchantId%3e80123%3c%2fMerchantId%3e%3cBusinessKey%3e0%3c%2fBusinessKey%3e%3c%2fVPosTransactionResponseContract%3e">\n        <noscript>\n            <center>Please click the submit button below.<br> <input type="submit" name="submit" value="Submit">\n            </center>\n        </noscript>\n    </form>\n    </body>\n    </html>',
};

const XML = {
  authentication:
    '<?xml version="1.0" encoding="UTF-8"?><VPosTransactionResponseContract><VPosMessage><APIVersion>1.0.0</APIVersion><OkUrl>http://localhost:44785/Home/Success</OkUrl><FailUrl>http://localhost:44785/Home/Fail</FailUrl><HashData>lYJYMi/gVO9MWr32Pshaa/zAbSHY=</HashData><MerchantId>80</MerchantId><SubMerchantId>0</SubMerchantId><CustomerId>400235</CustomerId><UserName>apiuser</UserName><CardNumber>4025502306586032</CardNumber><CardHolderName>ğĞüÜşŞiİöÖÇçüÜ</CardHolderName><CardType>MasterCard</CardType><BatchID>0</BatchID><TransactionType>Sale</TransactionType><InstallmentCount>0</InstallmentCount><Amount>100</Amount><DisplayAmount>100</DisplayAmount><MerchantOrderId>Order 123</MerchantOrderId><FECAmount>0</FECAmount><CurrencyCode>0949</CurrencyCode><QeryId>0</QeryId><DebtId>0</DebtId><SurchargeAmount>0</SurchargeAmount><SGKDebtAmount>0</SGKDebtAmount><TransactionSecurity>3</TransactionSecurity><TransactionSide>Auto</TransactionSide><EntryGateMethod>VPOS_ThreeDModelPayGate</EntryGateMethod></VPosMessage><IsEnrolled>true</IsEnrolled><IsVirtual>false</IsVirtual><OrderId>0</OrderId><TransactionTime>0001-01-01T00:00:00</TransactionTime><ResponseCode>00</ResponseCode><ResponseMessage>HATATA</ResponseMessage><MD>67YtBfBRTZ0XBKnAHi8c/A==</MD><AuthenticationPacket>WYGDgSIrSHDtYwF/WEN+nfwX63sppA=</AuthenticationPacket><ACSURL>https://acs.bkm.com.tr/mdpayacs/pareq</ACSURL></VPosTransactionResponseContract>',
  cancelRefused:
    '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><SaleReversalResponse xmlns="http://boa.net/BOA.Integration.VirtualPos/Service"><SaleReversalResult><Results><Result><ErrorMessage>İptal işlemi satışla aynı gün yapılmalıdır. Geçmiş tarihli işlem için iade yapınız.</ErrorMessage><ErrorCode>InvalidRequestError</ErrorCode><IsFriendly>true</IsFriendly><Severity>BusinessError</Severity></Result></Results><Success>false</Success><Value><IsEnrolled>false</IsEnrolled><IsVirtual>false</IsVirtual><ResponseCode>DbLayerError</ResponseCode><OrderId>0</OrderId><TransactionTime>0001-01-01T00:00:00</TransactionTime><MerchantId xsi:nil="true"/><BusinessKey>0</BusinessKey></Value></SaleReversalResult></SaleReversalResponse></s:Body></s:Envelope>',
  refundUnavailable:
    '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><PartialDrawbackResponse xmlns="http://boa.net/BOA.Integration.VirtualPos/Service"><PartialDrawbackResult><Results><Result><ErrorMessage>IsoProxyFactoryServiceResponseWasNull</ErrorMessage><ErrorCode>ServiceUnavailable</ErrorCode><IsFriendly>true</IsFriendly><Severity>BusinessError</Severity></Result></Results><Success>false</Success><Value><IsEnrolled>false</IsEnrolled><IsVirtual>false</IsVirtual><ResponseCode>DbLayerError</ResponseCode><OrderId>0</OrderId><TransactionTime>0001-01-01T00:00:00</TransactionTime><MerchantId xsi:nil="true"/><BusinessKey>0</BusinessKey></Value></PartialDrawbackResult></PartialDrawbackResponse></s:Body></s:Envelope>',
  status:
    '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><GetMerchantOrderDetailResponse xmlns="http://boa.net/BOA.Integration.VirtualPos/Service"><GetMerchantOrderDetailResult><Results/><Success>true</Success><Value><OrderContract><IsSelected>false</IsSelected><IsSelectable>true</IsSelectable><OrderId>302704156</OrderId><MerchantOrderId>20260209089B</MerchantOrderId><MerchantId>496</MerchantId><CardHolderName>John Doe</CardHolderName><CardType>MasterCard</CardType><CardNumber>518896******2544</CardNumber><OrderDate>2026-02-09T19:10:09.097</OrderDate><OrderStatus>1</OrderStatus><LastOrderStatus>6</LastOrderStatus><OrderType>1</OrderType><TransactionStatus>1</TransactionStatus><FirstAmount>10.01</FirstAmount><CancelAmount>10.01</CancelAmount><DrawbackAmount>0.00</DrawbackAmount><ClosedAmount>0.00</ClosedAmount><FEC>0949</FEC><VPSEntryMode>ECOM</VPSEntryMode><InstallmentCount>0</InstallmentCount><TransactionSecurity>3</TransactionSecurity><ResponseCode>00</ResponseCode><ResponseExplain>İşlem gerçekleştirildi.</ResponseExplain><EndOfDayStatus>2</EndOfDayStatus><TransactionSide>Auto</TransactionSide><CardHolderIPAddress/><MerchantIPAddress>207.211.215.148</MerchantIPAddress><MerchantUserName>apitest</MerchantUserName><ProvNumber>004212</ProvNumber><BatchId>623</BatchId><CardExpireDate>2906</CardExpireDate><PosTerminalId>VP008759</PosTerminalId><Explain/><Explain2/><Explain3/><RRN>604019659177</RRN><Stan>659177</Stan><UserName>vposuser2</UserName><HostName>STD8BOATEST1</HostName><SystemDate>2026-02-09T19:10:09.087</SystemDate><UpdateUserName>webgate2</UpdateUserName><UpdateHostName>STD8BOATEST1</UpdateHostName><UpdateSystemDate>2026-02-09T19:10:20.703</UpdateSystemDate><EndOfDayDate xsi:nil="true"/><HostIP>172.20.8.84</HostIP><FECAmount>0</FECAmount><IdentityTaxNumber/><QueryId>0</QueryId><DebtId>0</DebtId><DebtorName/><Period/><SurchargeAmount>0</SurchargeAmount><SGKDebtAmount>0</SGKDebtAmount><DeferringCount xsi:nil="true"/></OrderContract></Value></GetMerchantOrderDetailResult></GetMerchantOrderDetailResponse></s:Body></s:Envelope>',
};
