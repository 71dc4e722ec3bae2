// PayFlex's request mapping, serialiser and answer mapping against mewebstudio/pos (MIT), code
// nobody here wrote: the vectors below are copied from its tests/Unit/DataMapper/RequestDataMapper/
// PayFlexV4PosRequestDataMapperTest.php, tests/Unit/DataMapper/ResponseDataMapper/
// PayFlexV4PosResponseDataMapperTest.php and tests/Unit/Serializer/PayFlexV4PosSerializerTest.php
// (PayFlex v4 has no crypt: NullCrypt). The answers there were captured from VakıfBank's test
// system; the connector reads them as mewebstudio maps them, and the emulator takes the requests
// mewebstudio's serialiser writes and answers in the shape of the bank's captured answers.
import { describe, expect, it } from 'vitest';
import { PayflexState } from '../../emulators/payflex/state.ts';
import { handleSearch, handleVpos } from '../../emulators/payflex/vpos.ts';
import { enroll } from '../../emulators/payflex/mpi.ts';
import { enrollmentResult, reversalResult, saleResult, searchResult, statusResult } from '../../src/providers/payflex/answers.ts';
import { readMpiResult } from '../../src/providers/payflex/callback.ts';
import { enrollmentRequest, payflexAmount, refundRequest, cancelRequest, saleRequest, searchRequest, threeDSaleRequest } from '../../src/providers/payflex/requests.ts';
import { parsePayflexXml, prmstrBody, searchRequestXml, vposRequestXml } from '../../src/providers/payflex/xml.ts';
import type { PayflexCredentials } from '../../src/providers/payflex/settings.ts';

// mewebstudio's test account (AccountFactory::createPayFlexAccount in the tests above).
const credentials: PayflexCredentials = { merchant_id: '000000000111111', merchant_password: '3XTgER89as', terminal_no: 'VP999999', merchant_type: '0' };
const terminal = { merchantId: credentials.merchant_id, password: credentials.merchant_password, terminalNo: credentials.terminal_no };
const card = { holderName: 'ahmet', number: '5555444433332222', securityCode: '122', expiryMonth: '12', expiryYear: '2021' };
const inOrder = (value: object) => Object.entries(value);

/** A flat answer written as the bank's XML (mewebstudio's samples are its decoded arrays). */
const xmlOf = (root: string, fields: Record<string, string | null>) =>
  `<?xml version="1.0" encoding="utf-8"?><${root}>${Object.entries(fields)
    .map(([k, v]) => (v === null || v === '' ? `<${k} />` : `<${k}>${v}</${k}>`))
    .join('')}</${root}>`;
const answerOf = (xml: string) => {
  const answer = parsePayflexXml(xml);
  if (answer === null) throw new Error(`not XML: ${xml}`);
  return answer;
};

describe('PayFlex request mapping (PayFlexV4PosRequestDataMapperTest)', () => {
  it('maps the enrollment check field for field, in order', () => {
    const request = enrollmentRequest({ enrollmentId: 'rand123', amount: 10000n, currency: 'TRY', installmentNumber: 1, card, callbackUrl: 'https://domain.com/success' }, credentials);
    // mewebstudio's caller declares the card a Visa (BrandName 100); here the number says it, and 5555… is a Mastercard.
    // Its order has two addresses; the gateway's callback is both.
    expect(inOrder(request)).toEqual(
      inOrder({ MerchantId: '000000000111111', MerchantPassword: '3XTgER89as', MerchantType: '0', PurchaseAmount: '100.00', VerifyEnrollmentRequestId: 'rand123', Currency: '949', SuccessUrl: 'https://domain.com/success', FailureUrl: 'https://domain.com/success', Pan: '5555444433332222', ExpiryDate: '2112', BrandName: '200', IsRecurring: 'false' }),
    );
    const inTwo = enrollmentRequest({ enrollmentId: 'rand123', amount: 10000n, currency: 'TRY', installmentNumber: 2, card, callbackUrl: 'https://domain.com/success' }, credentials);
    expect(inTwo.InstallmentCount).toBe('2');
  });

  it('maps the 3-D sale field for field, in order, with and without instalments', () => {
    const p = { orderId: 'order222', amount: 10000n, currency: 'TRY' as const, installmentNumber: 0, eci: '05', cavv: 'AAABCYaRIwAAAVQ1gpEjAAAAAAA=', enrollmentId: 'ce06048a3e9c0cd1d437803fb38b5ad0', pan: '5555444433332222', expiry: '2112', holderName: 'ahmet', cvv: '122', clientIp: '127.0.0.1' };
    const expected = {
      MerchantId: '000000000111111', Password: '3XTgER89as', TerminalNo: 'VP999999', TransactionType: 'Sale', TransactionId: 'order222', CurrencyAmount: '100.00', CurrencyCode: '949', ECI: '05', CAVV: 'AAABCYaRIwAAAVQ1gpEjAAAAAAA=', MpiTransactionId: 'ce06048a3e9c0cd1d437803fb38b5ad0',
      OrderId: 'order222', ClientIp: '127.0.0.1', TransactionDeviceSource: '0', CardHoldersName: 'ahmet', Cvv: '122', Pan: '5555444433332222', Expiry: '202112',
    };
    expect(inOrder(threeDSaleRequest(p, credentials))).toEqual(inOrder(expected));
    expect(inOrder(threeDSaleRequest({ ...p, installmentNumber: 3 }, credentials))).toEqual(inOrder({ ...expected, NumberOfInstallments: '3' }));
    // The gateway keeps no holder's name or CVV until this step: without them the rest is the same.
    const { CardHoldersName: _name, Cvv: _cvv, ...withoutCard } = expected;
    expect(inOrder(threeDSaleRequest({ ...p, holderName: undefined, cvv: undefined }, credentials))).toEqual(inOrder(withoutCard));
  });

  it('maps a sale, a refund, a cancel and the search', () => {
    expect(inOrder(saleRequest({ orderId: 'order123', amount: 500n, currency: 'TRY', installmentNumber: 1, card, clientIp: '127.0.0.1' }, credentials))).toEqual(
      inOrder({ MerchantId: '000000000111111', Password: '3XTgER89as', TerminalNo: 'VP999999', TransactionType: 'Sale', OrderId: 'order123', CurrencyAmount: '5.00', CurrencyCode: '949', ClientIp: '127.0.0.1', TransactionDeviceSource: '0', Pan: '5555444433332222', Expiry: '202112', Cvv: '122' }),
    );
    const sale = '7022b92e-3aa1-44fb-86d4-33658c700c80';
    expect(refundRequest({ saleTransactionId: sale, amount: 500n, clientIp: '127.0.0.1' }, credentials)).toEqual({ ClientIp: '127.0.0.1', CurrencyAmount: '5.00', MerchantId: '000000000111111', Password: '3XTgER89as', ReferenceTransactionId: sale, TransactionType: 'Refund' });
    expect(inOrder(cancelRequest({ saleTransactionId: sale, clientIp: '127.0.0.1' }, credentials))).toEqual(inOrder({ MerchantId: '000000000111111', Password: '3XTgER89as', TransactionType: 'Cancel', ReferenceTransactionId: sale, ClientIp: '127.0.0.1' }));
    // The gateway's addition: its own TransactionId, by which the search finds a lost refund or cancel.
    expect(refundRequest({ saleTransactionId: sale, amount: 500n, transactionId: 'r1' }, credentials).TransactionId).toBe('r1');
    expect(searchRequest({ orderId: 'order222' }, credentials)).toEqual({ MerchantCriteria: { HostMerchantId: '000000000111111', MerchantPassword: '3XTgER89as' }, TransactionCriteria: { TransactionId: '', OrderId: 'order222', AuthCode: '' } });
    expect(searchRequest({ orderId: 'order222', transactionId: 'tx222' }, credentials).TransactionCriteria).toEqual({ TransactionId: 'tx222', OrderId: 'order222', AuthCode: '' });
  });

  it('formats amounts as mewebstudio does (testFormatAmount: 1000 -> 1000.00)', () => {
    expect(payflexAmount(100000n)).toBe('1000.00');
    expect(payflexAmount(101n)).toBe('1.01');
    expect(() => payflexAmount(0n)).toThrow(RangeError);
  });
});

const SALE_XML =
  '<VposRequest><MerchantId>000000000111111</MerchantId><Password>3XTgER89as</Password><TerminalNo>VP999999</TerminalNo><TransactionType>Sale</TransactionType><OrderId>order222</OrderId><CurrencyAmount>100.00</CurrencyAmount><CurrencyCode>949</CurrencyCode><ClientIp>127.0.0.1</ClientIp><TransactionDeviceSource>0</TransactionDeviceSource><Pan>5555444433332222</Pan><Expiry>202112</Expiry><Cvv>122</Cvv></VposRequest>';
const SEARCH_XML =
  '<?xml version="1.0" encoding="UTF-8"?>\n<SearchRequest><MerchantCriteria><HostMerchantId>000000000111111</HostMerchantId><MerchantPassword>3XTgER89as</MerchantPassword></MerchantCriteria><TransactionCriteria><TransactionId></TransactionId><OrderId>order222</OrderId><AuthCode></AuthCode></TransactionCriteria></SearchRequest>\n';

describe('PayFlex serialiser (PayFlexV4PosSerializerTest)', () => {
  it('writes the sale and the search byte for byte', () => {
    const sale = { MerchantId: '000000000111111', Password: '3XTgER89as', TerminalNo: 'VP999999', TransactionType: 'Sale', OrderId: 'order222', CurrencyAmount: '100.00', CurrencyCode: '949', ClientIp: '127.0.0.1', TransactionDeviceSource: '0', Pan: '5555444433332222', Expiry: '202112', Cvv: '122' };
    expect(vposRequestXml(sale)).toBe(SALE_XML);
    expect(searchRequestXml(searchRequest({ orderId: 'order222' }, credentials))).toBe(SEARCH_XML);
  });

  it("reads the bank's answer; an HTML page or an empty body is no answer to the call", () => {
    const xml = '<?xml version="1.0" encoding="utf-8"?><VposResponse><ResultCode>9039</ResultCode><ResultDetail>Üye işyeri bulunamadı.</ResultDetail><InstallmentTable /></VposResponse>';
    expect(parsePayflexXml(xml)).toEqual({ root: 'VposResponse', node: { ResultCode: '9039', ResultDetail: 'Üye işyeri bulunamadı.', InstallmentTable: '' } });
    const html = "<html><head><title>Request Rejected</title></head><body>The requested URL was rejected.<br><br>Your support ID is: 11795445874629392419<br><br><a href='javascript:history.back();'>[Go Back]</a></body></html>";
    const page = parsePayflexXml(html);
    expect(page === null || saleResult(page, 'order222') === null).toBe(true);
    expect(parsePayflexXml('')).toBeNull();
  });
});

describe('PayFlex answer mapping (PayFlexV4PosResponseDataMapperTest)', () => {
  it('a sale approved (success_1): the reference keeps the TransactionId refunds and cancels name', () => {
    const xml = xmlOf('VposResponse', { MerchantId: '000100000013506', TransactionType: 'Sale', TransactionId: '9972767117b3400eb2acafc0018643df', ResultCode: '0000', ResultDetail: 'İŞLEM BAŞARILI', InstallmentTable: null, CampaignResult: null, AuthCode: '961451', HostDate: '20230309234054', Rrn: '306823971358', TerminalNo: 'VP000579', CurrencyAmount: '1.01', CurrencyCode: '949', OrderId: '202303095646', ThreeDSecureType: '1', TransactionDeviceSource: '0', BatchNo: '300', TLAmount: '1.01' });
    expect(saleResult(answerOf(xml), '202303095646')).toEqual({ status: 'succeeded', providerReference: '202303095646:9972767117b3400eb2acafc0018643df' });
    expect(saleResult(answerOf(xml), 'another')).toBeNull();
  });

  it('a sale refused (fail_1: 0312, fail_2: 9039)', () => {
    const refused = xmlOf('VposResponse', { MerchantId: '000100000013506', TransactionType: 'Sale', TransactionId: '9b47227c275246d39454afc00186dfba', ResultCode: '0312', ResultDetail: 'RED-GEÇERSİZ KART', AuthCode: '000000', OrderId: '20230309EF68', CurrencyAmount: '1.01', CurrencyCode: '949' });
    expect(saleResult(answerOf(refused), '20230309EF68')).toEqual({ status: 'declined', code: 'card_declined', message: 'RED-GEÇERSİZ KART', providerCode: '0312', providerMessage: 'RED-GEÇERSİZ KART' });
    const merchant = xmlOf('VposResponse', { ResultCode: '9039', ResultDetail: 'Üye işyeri bulunamadı.', InstallmentTable: '' });
    expect(saleResult(answerOf(merchant), 'x')).toMatchObject({ status: 'error', code: 'provider_error', providerCode: '9039' });
  });

  it('a refund and a cancel approved (success_1), a refund refused (fail_1: 1059), a cancel refused (1083)', () => {
    const refund = xmlOf('VposResponse', { MerchantId: '000100000013506', TransactionType: 'Refund', TransactionId: '455ae6c09140434ea6edafc0018acbb9', ReferenceTransactionId: '6d491ea480564068976fafc0018a9def', ResultCode: '0000', ResultDetail: 'İŞLEM BAŞARILI', AuthCode: '752800', HostDate: '20230309235724', Rrn: '306823971382', CurrencyAmount: '1.01', CurrencyCode: '949', TLAmount: '1.01' });
    expect(reversalResult(answerOf(refund), 'o', '6d491ea480564068976fafc0018a9def')).toEqual({ status: 'succeeded', providerReference: 'o:455ae6c09140434ea6edafc0018acbb9' });
    expect(reversalResult(answerOf(refund), 'o', 'another sale')).toBeNull();
    const cancel = xmlOf('VposResponse', { TransactionType: 'Cancel', TransactionId: '4a8e979308de4568b500afc00187a501', ReferenceTransactionId: '3f30ab117aa74826b448afc0018789fa', ResultCode: '0000', ResultDetail: 'İŞLEM BAŞARILI' });
    expect(reversalResult(answerOf(cancel), 'o', '3f30ab117aa74826b448afc0018789fa')).toMatchObject({ status: 'succeeded' });
    expect(reversalResult(answerOf(xmlOf('VposResponse', { ResultCode: '1059', ResultDetail: 'İşlemin tamamı iade edilmiş.', InstallmentTable: null })), 'o', 's')).toEqual({ status: 'declined', code: 'refund_rejected', message: 'İşlemin tamamı iade edilmiş.', providerCode: '1059', providerMessage: 'İşlemin tamamı iade edilmiş.' });
    expect(reversalResult(answerOf(xmlOf('VposResponse', { ResultCode: '1083', ResultDetail: 'Referans islem daha önceden iptal edilmis.' })), 'o', 's')).toMatchObject({ code: 'refund_rejected', providerCode: '1083' });
  });

  it('the search: a sale found (success_pay) settles a lost payment; a failed search (fail1: 9065) is asked again', () => {
    const item = { MerchantId: '655500056', TransactionType: 'Sale', TransactionId: 'b2d71cc5-d242-4b01-8479-d56eb8f74d7c', OrderId: 'z2d71cc5-d242-4b01-8479-d56eb8f74d7', ResultCode: '0000', ResponseMessage: 'İŞLEM BAŞARILI', HostResultCode: '000', AuthCode: '11234', HostDate: '1130145930', Rrn: '201101240006', CurrencyAmount: '90.50', AmountCode: '949', CurrencyCode: '', ThreeDSecureType: '1', IsReversed: 'false', IsCanceled: 'false', IsRefunded: 'false' };
    const inner = Object.entries(item).map(([k, v]) => (v === '' ? `<${k} />` : `<${k}>${v}</${k}>`)).join('');
    const xml = `<SearchResponse><ResponseInfo><Status>Success</Status><ResponseCode>0000</ResponseCode><ResponseMessage>Succeeded.</ResponseMessage></ResponseInfo><PageIndex>1</PageIndex><PageSize>10</PageSize><TotalItemCount>1</TotalItemCount><TransactionSearchResultInfo><TransactionSearchResultInfo>${inner}</TransactionSearchResultInfo></TransactionSearchResultInfo></SearchResponse>`;
    const found = searchResult(answerOf(xml));
    expect(statusResult(found, { orderId: item.OrderId, amount: 9050n })).toEqual({ status: 'succeeded', providerReference: `${item.OrderId}:${item.TransactionId}` });
    expect(statusResult(found, { orderId: item.OrderId, amount: 9051n })).toBe('retry');
    const failed = '<SearchResponse><ResponseInfo><Status>Error</Status><ResponseCode>9065</ResponseCode><ResponseMessage>Üye isyeri bulunamadi</ResponseMessage></ResponseInfo></SearchResponse>';
    expect(searchResult(answerOf(failed))).toBe('retry');
  });

  it("the MPI's enrollment answers: Y with its ACS form (getSampleEnrollmentSuccessResponseDataProvider), E refused (merchant_not_found: 2005)", () => {
    const y = '<IPaySecure><Message><VERes><Status>Y</Status><PaReq>PaReq2</PaReq><TermUrl>TermUrl2</TermUrl><MD>MD3</MD><ACSUrl>http://acs.example/</ACSUrl></VERes></Message><MessageErrorCode>code</MessageErrorCode><ErrorMessage>some error</ErrorMessage></IPaySecure>';
    expect(enrollmentResult(answerOf(y), 'e1')).toEqual({ kind: 'form', action: 'http://acs.example/', fields: { PaReq: 'PaReq2', TermUrl: 'TermUrl2', MD: 'MD3' } });
    const e = '<IPaySecure><Message><VERes><Status>E</Status></VERes></Message><VerifyEnrollmentRequestId>0aebb0757acccae6fba75b2e4d78cecf</VerifyEnrollmentRequestId><MessageErrorCode>2005</MessageErrorCode><ErrorMessage>Merchant cannot be found for this bank</ErrorMessage></IPaySecure>';
    expect(enrollmentResult(answerOf(e), '0aebb0757acccae6fba75b2e4d78cecf')).toMatchObject({ status: 'error', code: 'provider_error', providerCode: '2005', providerMessage: 'Merchant cannot be found for this bank' });
    expect(enrollmentResult(answerOf(e), 'another enrollment')).toBeNull();
    // N: "Kart 3-D Secure programına dâhil değil" (mewebstudio throws; here the payment fails 3ds_failed).
    const n = '<IPaySecure><Message><VERes><Status>N</Status></VERes></Message><VerifyEnrollmentRequestId>e2</VerifyEnrollmentRequestId><MessageErrorCode /><ErrorMessage /></IPaySecure>';
    expect(enrollmentResult(answerOf(n), 'e2')).toMatchObject({ status: 'declined', code: '3ds_failed', providerCode: 'VERes:N' });
  });

  it("the MPI's result posted back (threeDPaymentDataProvider): read as mewebstudio maps it", () => {
    const fail = { MerchantId: '000000000111111', SubMerchantNo: '0', PurchAmount: '100', PurchCurrency: '949', VerifyEnrollmentRequestId: 'order-id-123', InstallmentCount: '', Pan: '5555444433332222', Expiry: 'hj', Xid: 'xid0393i3kdkdlslsls', Status: 'E', Cavv: 'AAABBBBBBBBBBBBBBBIIIIII=', Eci: '02', ExpSign: '', ErrorCode: '1105', ErrorMessage: 'Üye isyeri IP si sistemde tanimli degil' };
    expect(readMpiResult(fail)).toMatchObject({ enrollmentId: 'order-id-123', status: 'E', eci: '02', cavv: 'AAABBBBBBBBBBBBBBBIIIIII=', currency: '949', installments: '0', errorCode: '1105', errorMessage: 'Üye isyeri IP si sistemde tanimli degil' });
    const success = { MerchantId: '000100000013506', Pan: '4938460158754205', Expiry: '2411', PurchAmount: '101', PurchCurrency: '949', VerifyEnrollmentRequestId: 'ce06048a3e9c0cd1d437803fb38b5ad0', Xid: 'ondg8d9t5besgt88sk8h', SessionInfo: 'jpf58sdjj8p9mpb9shurh47v64', Status: 'Y', Cavv: 'ABIBCBgAAAEnAAABAQAAAAAAAAA=', Eci: '05', ExpSign: '', InstallmentCount: '', ErrorCode: '', ErrorMessage: '' };
    // PurchAmount "101" beside the sale's CurrencyAmount "1.01": the MPI posts minor units.
    expect(readMpiResult(success)).toMatchObject({ status: 'Y', eci: '05', cavv: 'ABIBCBgAAAEnAAABAQAAAAAAAAA=', pan: '4938460158754205', expiry: '2411', amount: 101n, installments: '0' });
  });
});

describe("the emulator on mewebstudio's requests", () => {
  const ctx = () => ({ state: new PayflexState(), terminal, now: new Date('2021-06-01T10:00:00Z'), forceDecline: false });

  it("takes the serialiser's sale, answers in the shape of the bank's captured answer, and the search finds it", () => {
    const c = ctx();
    const answer = answerOf(handleVpos(prmstrBody(SALE_XML), c));
    expect(Object.keys(answer.node)).toEqual(expect.arrayContaining(['MerchantId', 'TransactionType', 'TransactionId', 'ResultCode', 'ResultDetail', 'InstallmentTable', 'CampaignResult', 'AuthCode', 'HostDate', 'Rrn', 'TerminalNo', 'CurrencyAmount', 'CurrencyCode', 'OrderId', 'ThreeDSecureType', 'TransactionDeviceSource', 'BatchNo', 'TLAmount']));
    const sold = saleResult(answer, 'order222');
    expect(sold).toMatchObject({ status: 'succeeded' });
    const found = searchResult(answerOf(handleSearch(prmstrBody(SEARCH_XML), c)));
    expect(statusResult(found, { orderId: 'order222', amount: 10000n })).toEqual(sold);
    // Another merchant's password: 9039, as in fail_2.
    expect(answerOf(handleVpos(prmstrBody(SALE_XML.replace('3XTgER89as', 'wrong')), c)).node).toMatchObject({ ResultCode: '9039', ResultDetail: 'Üye işyeri bulunamadı.' });
  });

  it("answers mewebstudio's enrollment check with an ACS form the connector reads", () => {
    const c = { ...ctx(), baseUrl: 'http://127.0.0.1:1' };
    const request = enrollmentRequest({ enrollmentId: 'rand123', amount: 10000n, currency: 'TRY', installmentNumber: 1, card: { ...card, expiryYear: '2030' }, callbackUrl: 'https://domain.com/success' }, credentials);
    const answer = enrollmentResult(answerOf(enroll(new URLSearchParams(request).toString(), c)), 'rand123');
    expect(answer).toMatchObject({ kind: 'form', action: expect.stringMatching(/^http:\/\/127\.0\.0\.1:1\/_emulator\/acs\//), fields: { PaReq: expect.any(String), TermUrl: expect.any(String), MD: expect.any(String) } });
    const wrong = enrollmentResult(answerOf(enroll(new URLSearchParams({ ...request, VerifyEnrollmentRequestId: 'r2', MerchantPassword: 'x' }).toString(), c)), 'r2');
    expect(wrong).toMatchObject({ status: 'error', providerCode: '2005' });
  });
});
