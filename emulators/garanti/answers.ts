// GVPSResponse documents: the envelope every XML answer has, and GVP's refusals.
import { XMLBuilder } from 'fast-xml-parser';
import type { Txn } from './state.ts';

/** A refusal before the host: GVP answers HTTP 200, Source GVPS, Code 92 and a ReasonCode. */
export interface Refusal {
  reasonCode: string;
  errorMsg: string;
  sysErrMsg: string;
}

export class GvpRefusal extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.sysErrMsg);
  }
}

export const refuse = {
  /** Mandatory or malformed field (GVP's own ReasonCode 0002 answer). */
  invalid: (sysErrMsg: string) => new GvpRefusal({ reasonCode: '0002', errorMsg: 'Giriş yaptığınız işlem tipi için zorunlu alanları kontrol ediniz', sysErrMsg }),
  /** Wrong terminal, merchant, user or HashData. */
  auth: (sysErrMsg: string) => new GvpRefusal({ reasonCode: '0651', errorMsg: 'Güvenlik doğrulaması başarısız (HashData)', sysErrMsg }),
  /** Unknown order (GVP's ReasonCode 0110 answer). */
  notFound: () => new GvpRefusal({ reasonCode: '0110', errorMsg: 'İşlem bulunamadı', sysErrMsg: 'ErrorId: 0110' }),
  /** orderhistoryinq of an unknown order (GVP's ReasonCode 0108 answer). */
  noOrder: () => new GvpRefusal({ reasonCode: '0108', errorMsg: 'Gönderilen sipariş numarasına ait kayıt bulunmamaktadır', sysErrMsg: 'ErrorId: 0108' }),
  /** A refund or void the order does not allow (GVP's ReasonCode 0208 answer). */
  invalidReversal: (sysErrMsg: string) => new GvpRefusal({ reasonCode: '0208', errorMsg: 'İade etmek istediğiniz işlem geçerli değil', sysErrMsg }),
  /** A second, different sale under an order id that already has an approved one. */
  duplicateOrder: () => new GvpRefusal({ reasonCode: '0104', errorMsg: 'Bu sipariş numarası ile daha önce başarılı işlem yapılmış', sysErrMsg: 'ErrorId: 0104' }),
  /** The 3D model's sale with an authentication that is unknown, used, failed or for another order. */
  threeD: (sysErrMsg: string) => new GvpRefusal({ reasonCode: '0017', errorMsg: '3D doğrulama bilgileri geçersiz', sysErrMsg }),
};

export interface Envelope {
  terminal: Record<string, string>;
  customer: Record<string, string>;
  orderId: string;
  /** Extra children of <Order> (OrderInqResult, OrderHistInqResult). */
  order?: Record<string, unknown>;
  response: { source: 'HOST' | 'GVPS'; code: string; reasonCode: string; message: string; errorMsg: string; sysErrMsg: string };
  txn?: Txn;
  cardMasked?: string;
  hashData: string;
}

const builder = new XMLBuilder({ format: false, suppressEmptyNode: false });

export function renderAnswer(e: Envelope): string {
  const doc = {
    GVPSResponse: {
      Mode: '',
      Terminal: e.terminal,
      Customer: e.customer,
      Order: { OrderID: e.orderId, GroupID: '', ...e.order },
      Transaction: {
        Response: {
          Source: e.response.source,
          Code: e.response.code,
          ReasonCode: e.response.reasonCode,
          Message: e.response.message,
          ErrorMsg: e.response.errorMsg,
          SysErrMsg: e.response.sysErrMsg,
        },
        RetrefNum: e.txn?.retrefNum ?? '',
        AuthCode: e.txn?.authCode ?? '',
        BatchNum: e.txn?.batchNum ?? '',
        SequenceNum: e.txn?.sequenceNum ?? '',
        ProvDate: e.txn?.provDate ?? '',
        CardNumberMasked: e.cardMasked ?? '',
        CardHolderName: '',
        CardType: '',
        HashData: e.hashData,
        HostMsgList: '',
      },
    },
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(doc) as string}`;
}
