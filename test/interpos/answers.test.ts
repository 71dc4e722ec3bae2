// Reading InterPOS's answers and callbacks against mewebstudio/pos's vectors:
// tests/Unit/Serializer/InterPosSerializerTest.php (decode) and
// tests/Unit/DataMapper/ResponseDataMapper/InterPosResponseDataMapperTest.php (payment, 3D, 3D Pay,
// status, refund and cancel answers). Where the gateway reads a code differently from
// mewebstudio's status_detail, the difference is named.
import { describe, expect, it } from 'vitest';
import { encodeAnswer } from '../../emulators/interpos/api.ts';
import { orderStatusOf, paymentStatusOf, reversalResult, saleResult } from '../../src/providers/interpos/answers.ts';
import { judgeCallback } from '../../src/providers/interpos/callback.ts';
import { callbackHash } from '../../src/providers/interpos/hash.ts';
import { decodeAnswer } from '../../src/providers/interpos/wire.ts';

// InterPosSerializerTest::decodeDataProvider 'success_payment'
const SUCCESS_RAW =
  'OrderId=33554969;;ProcReturnCode=00;;HostRefNum=hostid;;AuthCode=gizlendi;;TxnResult=Success;;ErrorMessage=;;CampanyId=;;CampanyInstallCount=0;;CampanyShiftDateCount=0;;CampanyTxnId=;;CampanyType=;;CampanyInstallment=0;;CampanyDate=0;;CampanyAmnt=0;;TRXDATE=09.08.2024 10:40:34;;TransId=gizlendi;;ErrorCode=;;EarnedBonus=0,00;;UsedBonus=0,00;;AvailableBonus=0,00;;BonusToBonus=0;;CampaignBonus=0,00;;FoldedBonus=0;;SurchargeAmount=0;;Amount=1,00;;CardHolderName=gizlendi;;QrReferenceNumber=;;QrCardToken=;;QrData=;;QrPayIsSucess=False;;QrIssuerPaymentMethod=;;QrFastMessageReferenceNo=;;QrFastParticipantReceiverCode=;;QrFastParticipantReceiverName=;;QrFastParticipantSenderCode=;;QrFastSenderIban=;;QrFastParticipantSenderName=;;QrFastPaymentResultDesc=';
const SUCCESS_DECODED = Object.fromEntries(SUCCESS_RAW.split(';;').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));

// paymentTestDataProvider 'fail1' (the same shape answers refundTestDataProvider and cancelTestDataProvider 'fail1').
const TERMINAL_INACTIVE = { OrderId: '20221225662C', ProcReturnCode: '81', HostRefNum: '', AuthCode: '', TxnResult: 'Failed', ErrorMessage: 'Terminal Aktif Degil', TRXDATE: '', TransId: '', ErrorCode: 'B810002', Amount: '1,01' };

// statusTestDataProvider 'fail1'
const STATUS_FAIL = { OrderId: 'SYSOID121327781', ProcReturnCode: '81', BatchNo: '', TransId: '', TRXDATE: '', TxnStat: '', PurchAmount: '0', VoidDate: '1.1.0001 00:00:00', TxnStatus: '', ChargeTypeCd: '', ErrorCode: 'B810002', ErrorMessage: 'TR:Terminal Aktif Degil', RefundedAmount: '0', AuthCode: '' };

const HASH_PARAMS = 'Version:PurchAmount:Exponent:Currency:OkUrl:FailUrl:MD:OrderId:ProcReturnCode:Response:mdStatus:';
// threeDPayPaymentDataProvider 'authFail1': signed with the test account's store key gDg1N.
const THREE_D_PAY_FAIL: Record<string, string> = {
  Version: '', MerchantID: '', ShopCode: '3123', TxnStat: 'N', MD: '', RetCode: '', RetDet: '', VenderCode: '', Eci: '', PayerAuthenticationCode: '', PayerTxnId: '', CavvAlg: '',
  PAResVerified: 'False', PAResSyntaxOK: 'False', Expiry: '****', Pan: '540061******0430', OrderId: '20221225B83B', PurchAmount: '1,01', Exponent: '', Description: '', Description2: '',
  Currency: '949', OkUrl: 'http:\\/\\/localhost\\/interpos\\/3d-pay\\/response.php', FailUrl: 'http:\\/\\/localhost\\/interpos\\/3d-pay\\/response.php', '3DStatus': '0', AuthCode: '',
  HostRefNum: '', TransId: '', TRXDATE: '', CardHolderName: '', mdStatus: '0', ProcReturnCode: '81', TxnResult: '', ErrorMessage: 'Terminal Aktif Degil', ErrorCode: 'B810002', Response: '',
  HASH: 'PvDXe6Puf9W2oZnBZuHVp8oWpyY=', HASHPARAMS: HASH_PARAMS,
  HASHPARAMSVAL: '1,01949http:\\/\\/localhost\\/interpos\\/3d-pay\\/response.phphttp:\\/\\/localhost\\/interpos\\/3d-pay\\/response.php20221225B83B810',
};
// threeDPaymentDataProvider 'authFail1' (InterPosCryptTest's second vector), a 3D model callback.
const THREE_D_FAIL: Record<string, string> = {
  Version: '', ShopCode: '3123', TxnStat: 'N', MD: '', OrderId: '20221225E1DF', PurchAmount: '1,01', Exponent: '', Currency: '949',
  OkUrl: 'http:\\/\\/localhost\\/interpos\\/3d\\/response.php', FailUrl: 'http:\\/\\/localhost\\/interpos\\/3d\\/response.php', '3DStatus': '0', mdStatus: '0', ProcReturnCode: '81',
  Response: '', ErrorMessage: 'Terminal Aktif Degil', ErrorCode: 'B810002', HASH: '423AWRAXl0VlEbQjpmAfntT5e3E=', HASHPARAMS: HASH_PARAMS,
};

const ctx = (model: '3d' | '3d_pay' | '3d_host') => ({ storeKey: 'gDg1N', shopCode: '3123', model });
const paymentOf = (orderId: string) => ({ startKey: 'k', providerReference: orderId, amount: 101n, currency: 'TRY' as const });

describe('InterPOS answers against mewebstudio/pos vectors', () => {
  it('decodes as InterPosSerializer::decode, and the emulator writes the same body', () => {
    expect(decodeAnswer(SUCCESS_RAW)).toEqual(SUCCESS_DECODED);
    expect(encodeAnswer(SUCCESS_DECODED)).toBe(SUCCESS_RAW);
    expect(decodeAnswer('A=1;;;ProcReturnCode=00;;B=x=y;;')).toEqual({ A: '1', ProcReturnCode: '00', B: 'x=y' });
  });

  it('takes a body that is not an answer for no answer', () => {
    for (const raw of ['', '<html><body>Server Error</body></html>', 'OrderId=1;;garbage', 'OrderId=1;;TransId=2']) expect(decodeAnswer(raw)).toBeNull();
  });

  it("reads the 3D model's approved sale (threeDPaymentDataProvider 'success' paymentData)", () => {
    const answer = decodeAnswer(SUCCESS_RAW)!;
    expect(saleResult(answer, '33554969', '33554969')).toEqual({ status: 'succeeded', providerReference: '33554969' });
    expect(saleResult(answer, 'another', 'another')).toBeNull();
  });

  it("reads 81/B810002 (mewebstudio: declined, invalid_credentials) as the terminal's failure: a provider error, not the card's", () => {
    const expected = { status: 'error', code: 'provider_error', message: 'Terminal Aktif Degil', providerCode: '81/B810002', providerMessage: 'Terminal Aktif Degil' };
    expect(saleResult(TERMINAL_INACTIVE, '20221225662C', '20221225662C')).toEqual(expected);
    // Refund and cancel answers name a system id of their own (SYSOID...), never the order.
    expect(reversalResult({ ...TERMINAL_INACTIVE, OrderId: 'SYSOID121332551' }, 'order')).toEqual(expected);
  });

  it('reads a failed StatusHistory (81) as an inquiry that cannot say, not as a declined payment', () => {
    expect(orderStatusOf(STATUS_FAIL)).toBe('retry');
    expect(paymentStatusOf(orderStatusOf(STATUS_FAIL), { amount: 101n, reference: 'x' })).toBe('retry');
  });

  it("judges the signed 3D Pay failure: verified, not authenticated (mdStatus 0), nothing charged", () => {
    expect(judgeCallback(ctx('3d_pay'), paymentOf('20221225B83B'), THREE_D_PAY_FAIL)).toMatchObject({ status: 'verified', authenticated: false, failure: { code: '3ds_failed', providerCode: 'mdStatus:0', providerMessage: 'Terminal Aktif Degil' } });
    expect(judgeCallback(ctx('3d'), paymentOf('20221225E1DF'), THREE_D_FAIL)).toMatchObject({ status: 'verified', authenticated: false, failure: { code: '3ds_failed' } });
  });

  it('refuses the vector callback for another order, amount, currency or shop, and one whose 3DStatus disagrees', () => {
    const judge = (fields: Record<string, string>, orderId = '20221225B83B', amount = 101n) => judgeCallback(ctx('3d_pay'), { ...paymentOf(orderId), amount }, fields);
    expect(judge(THREE_D_PAY_FAIL, 'anotherorder')).toMatchObject({ status: 'rejected', cause: 'order' });
    expect(judge(THREE_D_PAY_FAIL, '20221225B83B', 100n)).toMatchObject({ status: 'rejected', cause: 'amount' });
    expect(judgeCallback(ctx('3d_pay'), { ...paymentOf('20221225B83B'), currency: 'EUR' }, THREE_D_PAY_FAIL)).toMatchObject({ status: 'rejected', cause: 'currency' });
    expect(judgeCallback({ ...ctx('3d_pay'), shopCode: '999' }, paymentOf('20221225B83B'), THREE_D_PAY_FAIL)).toMatchObject({ status: 'rejected', cause: 'merchant' });
    expect(judge({ ...THREE_D_PAY_FAIL, '3DStatus': '1' })).toMatchObject({ status: 'rejected', cause: 'incomplete' });
    expect(judge({ ...THREE_D_PAY_FAIL, mdStatus: '1' })).toMatchObject({ status: 'rejected', cause: 'signature' });
    expect(judge({ ...THREE_D_PAY_FAIL, HASH: '' })).toMatchObject({ status: 'rejected', cause: 'unsigned' });
    // Signed with the right key over a list that leaves out the charge's outcome: refused all the same.
    const unsignedOutcome = { ...THREE_D_PAY_FAIL, HASHPARAMS: 'OrderId:PurchAmount:Currency:mdStatus:' };
    expect(judge({ ...unsignedOutcome, HASH: callbackHash(unsignedOutcome, 'gDg1N') })).toMatchObject({ status: 'rejected', cause: 'incomplete' });
  });
});
