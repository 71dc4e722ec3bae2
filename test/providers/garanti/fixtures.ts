// GVP answers and the test account, from mewebstudio/pos tests (PHP arrays there, XML here):
// tests/Unit/DataMapper/ResponseDataMapper/GarantiPosResponseDataMapperTest.php (paymentTestDataProvider,
// statusTestDataProvider, cancelTestDataProvider) and the account and signed callback of
// tests/Unit/Crypt/GarantiPosCryptTest.php.
import { XMLBuilder } from 'fast-xml-parser';
import type { GarantiCredentials } from '../../../src/providers/garanti/settings.ts';

/** GarantiPosCryptTest's account: merchant 7000679, terminal 30691298, PROVAUT and PROVRFN with "123qweASD/", store key 12345678. */
export const CREDENTIALS: GarantiCredentials = {
  merchant_id: '7000679',
  terminal_id: '30691298',
  provision_user: 'PROVAUT',
  provision_password: '123qweASD/',
  refund_user: 'PROVRFN',
  refund_password: '123qweASD/',
  store_key: '12345678',
};

export type Tree = { [name: string]: string | Tree };

const builder = new XMLBuilder({ format: false, suppressEmptyNode: false });

/** A <GVPSResponse> document as GVP sends it. */
export function responseXml(body: Tree): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ GVPSResponse: body }) as string}`;
}

const rewards = { RewardList: '', ChequeList: '' };

/** paymentTestDataProvider 'success1' with another order id. */
export function saleApproved(orderId: string): Tree {
  return {
    Mode: '',
    Terminal: { ProvUserID: 'PROVAUT', UserID: 'PROVAUT', ID: '30691298', MerchantID: '7000679' },
    Customer: { IPAddress: '172.26.0.1' },
    Order: { OrderID: orderId, GroupID: '' },
    Transaction: {
      Response: { Source: 'HOST', Code: '00', ReasonCode: '00', Message: 'Approved', ErrorMsg: '', SysErrMsg: '' },
      RetrefNum: '230508300434',
      AuthCode: '304919',
      BatchNum: '004951',
      SequenceNum: '000015',
      ProvDate: '20221101 13:14:19',
      CardNumberMasked: '428220******8015',
      CardHolderName: 'HA*** YIL***',
      CardType: 'FLEXI',
      HashData: '1AAF91AE8000A94BF0B3FF42222E75E5837C98B9',
      HostMsgList: '',
      RewardInqResult: rewards,
      GarantiCardInd: 'Y',
    },
  };
}

/** paymentTestDataProvider 'fail_1': GVP's own refusal of the request (92 / 0002). */
export function saleRefusedByGvp(orderId: string): Tree {
  return {
    Mode: '',
    Terminal: { ProvUserID: 'PROVAUT', UserID: 'PROVAUT', ID: '30691298', MerchantID: '7000679' },
    Customer: { IPAddress: '172.26.0.1' },
    Order: { OrderID: orderId, GroupID: '' },
    Transaction: {
      Response: {
        Source: 'GVPS',
        Code: '92',
        ReasonCode: '0002',
        Message: 'Declined',
        ErrorMsg: 'Giriş yaptığınız işlem tipi için zorunlu alanları kontrol ediniz',
        SysErrMsg: 'TxnAmount field must not be zero DOUBLE value because of the Mandatory Rule:zero',
      },
      RetrefNum: '',
      AuthCode: '',
      BatchNum: '',
      SequenceNum: '',
      ProvDate: '20221101 13:19:22',
      CardNumberMasked: '428220******8015',
      CardHolderName: '',
      CardType: '',
      HashData: 'FCA7BDA4204E448FF2695358D22E3B75125DC396',
      HostMsgList: '',
      RewardInqResult: rewards,
      GarantiCardInd: 'Y',
    },
  };
}

/** An issuer's refusal: the shape of cancelTestDataProvider 'fail1' with another code and message. */
export function hostDeclined(orderId: string, code: string, message: string, user = 'PROVAUT'): Tree {
  return {
    Mode: '',
    Terminal: { ProvUserID: user, UserID: user, ID: '30691298', MerchantID: '7000679' },
    Customer: { IPAddress: '172.26.0.1' },
    Order: { OrderID: orderId, GroupID: '' },
    Transaction: {
      Response: { Source: 'HOST', Code: code, ReasonCode: code, Message: 'Declined', ErrorMsg: message, SysErrMsg: `RPC-${code} condition was raised` },
      RetrefNum: '230508300968',
      AuthCode: '304919',
      BatchNum: '004951',
      SequenceNum: '000033',
      ProvDate: '20221101 16:22:11',
      CardNumberMasked: '428220******8015',
      CardHolderName: '',
      CardType: '',
      HashData: '5820A79661E0B894407469B4F764BD58BDC270F1',
      HostMsgList: '',
      RewardInqResult: rewards,
    },
  };
}

/** A refund's or void's approval (PROVRFN), the shape of the answers above. */
export function reversalApproved(orderId: string): Tree {
  const answer = saleApproved(orderId);
  return { ...answer, Terminal: { ProvUserID: 'PROVRFN', UserID: 'PROVRFN', ID: '30691298', MerchantID: '7000679' } };
}

const emptyInq = {
  ChargeType: '',
  PreAuthAmount: '0',
  PreAuthDate: '',
  AuthAmount: '0',
  AuthDate: '',
  RecurringInfo: '',
  RecurringStatus: '',
  Status: '',
  RemainingBNSAmount: '0',
  UsedFBBAmount: '0',
  UsedChequeType: '',
  UsedChequeCount: '0',
  UsedChequeAmount: '0',
  UsedBnsAmount: '0',
  InstallmentCnt: '0',
  CardNumberMasked: 'null',
  CardRef: '',
  Code: '',
  ReasonCode: '',
  SysErrMsg: '',
  RetrefNum: '',
  GPID: '',
  AuthCode: '',
  BatchNum: '0',
  SequenceNum: '0',
  ProvDate: '',
  CardHolderName: '',
  CardType: '',
};

/** statusTestDataProvider 'success_pay' (AuthAmount 101, Status APPROVED) with another order id. */
export function inquiryApproved(orderId: string, authAmount = '101'): Tree {
  return {
    Mode: '',
    Terminal: { ProvUserID: 'PROVAUT', UserID: 'PROVAUT', ID: '30691298', MerchantID: '7000679' },
    Customer: { IPAddress: '172.26.0.1' },
    Order: {
      OrderID: orderId,
      GroupID: '',
      OrderInqResult: {
        ...emptyInq,
        ChargeType: 'S',
        AuthAmount: authAmount,
        AuthDate: '2023-01-07 21:27:59.271',
        RecurringInfo: 'N',
        Status: 'APPROVED',
        CardNumberMasked: '428220******8015',
        Code: '00',
        ReasonCode: '00',
        RetrefNum: '300708704369',
        AuthCode: '304919',
        BatchNum: '5168',
        SequenceNum: '21',
        ProvDate: '2023-01-07 21:27:59.253',
        CardHolderName: 'HA*** YIL***',
        CardType: 'FLEXI',
      },
    },
    Transaction: saleApproved(orderId).Transaction as Tree,
  };
}

/** statusTestDataProvider 'fail1': GVP knows no such order (92 / 0110, "İşlem bulunamadı"). */
export function inquiryNotFound(orderId: string): Tree {
  return {
    Mode: '',
    Terminal: { ProvUserID: 'PROVAUT', UserID: 'PROVAUT', ID: '30691298', MerchantID: '7000679' },
    Customer: { IPAddress: '172.26.0.1' },
    Order: { OrderID: orderId, GroupID: '', OrderInqResult: emptyInq },
    Transaction: {
      Response: { Source: 'GVPS', Code: '92', ReasonCode: '0110', Message: 'Declined', ErrorMsg: 'İşlem bulunamadı', SysErrMsg: 'ErrorId: 0110' },
      RetrefNum: '',
      AuthCode: '',
      BatchNum: '',
      SequenceNum: '',
      ProvDate: '20221101 15:50:44',
      CardNumberMasked: '',
      CardHolderName: '',
      CardType: '',
      HashData: '2C5E7171202254F3A721166A2F8D4C1EE9582C13',
      HostMsgList: '',
      RewardInqResult: rewards,
    },
  };
}

/** GarantiPosCryptTest::threeDHashCheckDataProvider: a 3D model callback signed with SHA-512. */
export const SIGNED_CALLBACK: Record<string, string> = {
  xid: 'f3ec4783-f48c-475c-a59c-ab25f3170ec5',
  mdstatus: '1',
  mderrormessage: 'Y-status/Challenge authentication via ACS: https://gbemv3dsecure.garanti.com.tr/web/creq',
  txnstatus: '',
  eci: '02',
  cavv: 'xgRlQDz4AAAAAAAAAAAAAAAAAAA=',
  paressyntaxok: '',
  paresverified: '',
  version: '',
  ireqcode: '',
  ireqdetail: '',
  vendorcode: '',
  cavvalgorithm: '',
  md: 'aW5kZXg6MDJ6LjAI5iAcKf/ilXjYIOnTh4t+deHrtwO8ze7tPTL1YCDcBe8KEpuq6HDLYbqQSluL7p3kGcpFzX9s9XcegNhHMsDszxqGd33+p+p5sULGrDF3J2GGfiJDwan4ku7+eiTyS8x2xS9pUy7PTgMGc6jw94aLfXLHskhvY7FYWrymzQ==',
  terminalid: '30691298',
  oid: '2023100354BB',
  authcode: '',
  response: '',
  errmsg: '',
  hostmsg: '',
  procreturncode: '',
  transid: '2023100354BB',
  hostrefnum: '',
  rnd: 'kW094tPzNEhqORzzCsLB',
  hash: '416B6253425E73184F118CC02E3BAA393622059BF6B0865D83F501E55A61339B9EC659CBCF7297EDECC1B17BF6281D90CC0AD8EDF3E1EFE94432ACCEAF79B26E',
  hashparams: 'clientid:oid:authcode:procreturncode:response:mdstatus:cavv:eci:md:rnd:',
  hashparamsval:
    '306912982023100354BB1xgRlQDz4AAAAAAAAAAAAAAAAAAA=02aW5kZXg6MDJ6LjAI5iAcKf/ilXjYIOnTh4t+deHrtwO8ze7tPTL1YCDcBe8KEpuq6HDLYbqQSluL7p3kGcpFzX9s9XcegNhHMsDszxqGd33+p+p5sULGrDF3J2GGfiJDwan4ku7+eiTyS8x2xS9pUy7PTgMGc6jw94aLfXLHskhvY7FYWrymzQ==kW094tPzNEhqORzzCsLB',
  clientid: '30691298',
  MaskedPan: '54066975****1173',
  apiversion: '512',
  orderid: '2023100354BB',
  txninstallmentcount: '',
  terminaluserid: 'PROVAUT',
  secure3dhash: 'B0EE6F6405ABB6EF014D802880EF3DC72CEA1EFD16E7E346A4CD6F6EE6ED2148FA8DCFD703EAEA9C154C7C200CF42D00A874832D6D3F22F9447EDF241D540286',
  secure3dsecuritylevel: '3D',
  txncurrencycode: '949',
  customeremailaddress: 'mail@customer.com',
  errorurl: 'http://localhost/garanti/3d/response.php',
  terminalmerchantid: '7000679',
  mode: 'TEST',
  terminalprovuserid: 'PROVAUT',
  txnamount: '101',
  successurl: 'http://localhost/garanti/3d/response.php',
  txntype: 'sales',
  customeripaddress: '172.26.0.1',
};
