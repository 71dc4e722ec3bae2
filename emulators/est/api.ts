import { luhnValid, masks, outcomeOf } from './cards.ts';
import { alreadyPaid, charge, DUPLICATE_ORDER } from './charges.ts';
import { CURRENCIES, toMinor } from './money.ts';
import { inquiryDate, newAuthCode, newHostRefNum, newTransId, trxDate, type EstOrder, type EstState, type EstTransaction } from './state.ts';
import { extra, text, type XmlFields } from './xml.ts';

export interface ApiContext {
  state: EstState;
  credentials: { clientId: string; apiUser: string; apiPassword: string };
  now: Date;
  /** A `decline` control rule: this Auth is declined (05). */
  forceDecline: boolean;
}

type Answer = Record<string, unknown>;

/** Whether the request charges a card (what a `decline` control rule applies to). */
export const isPaymentRequest = (request: XmlFields): boolean => text(request, 'Type') === 'Auth';

/** Answers one CC5Request with the fields of its CC5Response. */
export function handleRequest(ctx: ApiContext, request: XmlFields): Answer {
  const orderId = text(request, 'OrderId') ?? '';
  const { clientId, apiUser, apiPassword } = ctx.credentials;
  if (text(request, 'Name') !== apiUser || text(request, 'Password') !== apiPassword || text(request, 'ClientId') !== clientId) {
    return error(ctx, orderId, 'Kullanici adi, sifre veya ClientId hatali.', 'CORE-2702');
  }
  const queries = extra(request);
  if (queries.ORDERSTATUS === 'QUERY') return orderStatus(ctx, orderId);
  if (queries.ORDERHISTORY === 'QUERY') return orderHistory(ctx, orderId);
  const type = text(request, 'Type');
  if (type === 'Auth') return auth(ctx, request);
  if (type === 'Credit') return credit(ctx, request, orderId);
  if (type === 'Void') return voidLast(ctx, orderId);
  return error(ctx, orderId, `Desteklenmeyen islem tipi: ${type ?? ''}`, 'CORE-2101');
}

function auth(ctx: ApiContext, request: XmlFields): Answer {
  const is3D = ['PayerTxnId', 'PayerAuthenticationCode', 'PayerSecurityLevel'].some((name) => text(request, name) !== undefined);
  const amountMinor = toMinor(text(request, 'Total'));
  const currency = text(request, 'Currency') ?? '';
  const installments = text(request, 'Taksit') ?? '';
  const given = text(request, 'OrderId') ?? '';
  if (amountMinor === null || amountMinor === 0) return error(ctx, given, 'Tutar (Total) gecersiz.', 'CORE-2005');
  if (!CURRENCIES[currency]) return error(ctx, given, 'Para birimi (Currency) gecersiz.', 'CORE-2006');
  if (!/^(|[01]|[2-9]|1[0-2])$/.test(installments)) return error(ctx, given, 'Taksit tablosu icin gecersiz deger', 'CORE-2603');
  return is3D ? auth3D(ctx, request, { amountMinor, currency, installments, given }) : authPlain(ctx, request, { amountMinor, currency, installments, given });
}

interface AuthBasics {
  amountMinor: number;
  currency: string;
  installments: string;
  given: string;
}

/** 3D model: Number is the callback's md; the payer fields must be the ACS's proof for that md. */
function auth3D(ctx: ApiContext, request: XmlFields, basics: AuthBasics): Answer {
  const session = ctx.state.sessionsByMd.get(text(request, 'Number') ?? '');
  const oid = basics.given || session?.oid || '';
  const proofMatches =
    session !== undefined &&
    text(request, 'PayerTxnId') === session.xid &&
    text(request, 'PayerSecurityLevel') === session.eci &&
    text(request, 'PayerAuthenticationCode') === session.cavv;
  if (!session || session.storetype !== '3d' || !['1', '2', '3', '4'].includes(session.mdStatus ?? '') || !proofMatches) {
    return error(ctx, oid, 'MPI dogrulamasi bulunamadi veya 3D bilgileri hatali.', 'CORE-2113');
  }
  if (session.used) return error(ctx, oid, 'Bu 3D dogrulamasi daha once kullanilmis.', 'CORE-2114');
  if (oid !== session.oid || basics.amountMinor !== session.amountMinor || basics.currency !== session.currency) {
    return error(ctx, oid, '3D dogrulamasi ile siparis bilgileri (OrderId, Total, Currency) uyusmuyor.', 'CORE-2115');
  }
  if (alreadyPaid(ctx.state, oid)) return error(ctx, oid, DUPLICATE_ORDER.errMsg, DUPLICATE_ORDER.errorCode);
  session.used = true;
  const threeD = { mdStatus: session.mdStatus!, eci: session.eci, cavv: session.cavv, xid: session.xid };
  const { tx } = charge(ctx.state, { ...basics, oid, outcome: session.outcome, forceDecline: ctx.forceDecline, maskedCreditCard: session.maskedCreditCard, threeD }, ctx.now);
  return txAnswer(oid, tx);
}

/** Non-3D: the card itself (Number, Expires MM/YY, Cvv2Val). */
function authPlain(ctx: ApiContext, request: XmlFields, basics: AuthBasics): Answer {
  const pan = (text(request, 'Number') ?? '').replace(/\s/g, '');
  const expires = /^(\d{2})\/?(\d{2})$/.exec(text(request, 'Expires') ?? '');
  const oid = basics.given || `ORDER-${newTransId(ctx.now)}`;
  if (!luhnValid(pan)) return error(ctx, oid, 'Kredi karti numarasi gecerli formatta degil.', 'CORE-2012');
  if (!expires || Number(expires[1]) < 1 || Number(expires[1]) > 12) return error(ctx, oid, 'Son kullanma tarihi (Expires) gecersiz.', 'CORE-2013');
  if (!/^\d{3,4}$/.test(text(request, 'Cvv2Val') ?? '')) return error(ctx, oid, 'CVV Hatasi veya girilen CVV gecersiz.', 'ISO8583-82', '82');
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(oid)) return error(ctx, oid, 'Siparis numarasi (OrderId) gecersiz.', 'CORE-2007');
  if (alreadyPaid(ctx.state, oid)) return error(ctx, oid, DUPLICATE_ORDER.errMsg, DUPLICATE_ORDER.errorCode);
  const outcome = outcomeOf(pan, Number(expires[1]), Number(expires[2]), ctx.now);
  const { tx } = charge(ctx.state, { ...basics, oid, outcome, forceDecline: ctx.forceDecline, maskedCreditCard: masks(pan).maskedCreditCard, threeD: null }, ctx.now);
  return txAnswer(oid, tx);
}

/**
 * Refund by order id: Total (or all that is left) from the sale, never more than what is left. A
 * well-formed credit the order refuses (its sale voided, nothing or too little left) stays in the
 * order's history as a declined C line with code 99, as EST lists one (mewebstudio/pos
 * EstPosResponseDataMapperTest orderHistoryTestDataProvider, success_cancel_success_refund_fail).
 */
function credit(ctx: ApiContext, request: XmlFields, oid: string): Answer {
  const order = ctx.state.orders.get(oid);
  if (!order) return error(ctx, oid, 'Iade yapilacak basarili satis islemi bulunamadi.', 'CORE-2504');
  const currency = text(request, 'Currency');
  if (currency !== undefined && currency !== '' && currency !== order.currency) return error(ctx, oid, 'Para birimi siparisinkiyle ayni degil.', 'CORE-2006');
  const left = ctx.state.refundable(order);
  const totalText = text(request, 'Total');
  const amountMinor = totalText === undefined || totalText === '' ? left : toMinor(totalText);
  if (amountMinor === null || (amountMinor === 0 && left > 0)) return error(ctx, oid, 'Tutar (Total) gecersiz.', 'CORE-2005');
  const refused = (errMsg: string, errorCode: string): Answer => {
    record(ctx, order, 'C', amountMinor, { procReturnCode: '99', errMsg });
    return error(ctx, oid, errMsg, errorCode);
  };
  if (!ctx.state.sale(order)) return refused('Iade yapilacak basarili satis islemi bulunamadi.', 'CORE-2504');
  if (left === 0) return { ...refused('Net Tutar 0.', '215021'), Response: 'Declined' };
  if (amountMinor > left) return refused('Iade tutari, siparisin iade edilebilir tutarindan fazla olamaz.', 'CORE-2507');
  const tx = record(ctx, order, 'C', amountMinor);
  return txAnswer(oid, tx);
}

/** Void by order id: cancels the order's latest approved transaction (a refund before the sale it refunds). */
function voidLast(ctx: ApiContext, oid: string): Answer {
  const order = ctx.state.orders.get(oid);
  const target = order?.transactions.findLast((t) => t.status === 'A');
  if (!order || !target) return error(ctx, oid, 'İptal edilmeye uygun satış işlemi bulunamadı.', 'CORE-2008');
  target.status = 'V';
  target.voidedAt = ctx.now;
  return txAnswer(oid, { ...target, transId: newTransId(ctx.now), authCode: newAuthCode(), hostRefNum: newHostRefNum(), procReturnCode: '00', errMsg: '', at: ctx.now });
}

/** Adds a transaction to the order's history: approved unless `declined` gives the bank's code. */
function record(ctx: ApiContext, order: EstOrder, chargeType: 'S' | 'C', amountMinor: number, declined?: { procReturnCode: string; errMsg: string }): EstTransaction {
  const tx: EstTransaction = {
    chargeType,
    status: declined ? 'D' : 'A',
    amountMinor,
    transId: newTransId(ctx.now),
    authCode: declined ? '' : newAuthCode(),
    hostRefNum: declined ? '' : newHostRefNum(),
    procReturnCode: declined?.procReturnCode ?? '00',
    errMsg: declined?.errMsg ?? '',
    at: ctx.now,
    voidedAt: null,
  };
  order.transactions.push(tx);
  return tx;
}

/** ORDERSTATUS: the order's latest transaction, in EST's Extra fields. */
function orderStatus(ctx: ApiContext, oid: string): Answer {
  const order = ctx.state.orders.get(oid);
  const last = order?.transactions.at(-1);
  if (!order || !last) return { ErrMsg: `No record found for ${oid}`, ProcReturnCode: '99', Response: 'Declined', OrderId: oid, TransId: '', Extra: { NUMCODE: '0' } };
  const summary: Record<string, string> = {
    ORD_ID: oid,
    CHARGE_TYPE_CD: last.chargeType,
    ORIG_TRANS_AMT: String(last.amountMinor),
    CAPTURE_AMT: last.status === 'D' ? '' : String(last.amountMinor),
    TRANS_STAT: last.status,
    AUTH_DTTM: inquiryDate(last.at),
    CAPTURE_DTTM: last.status === 'D' ? '' : inquiryDate(last.at),
    AUTH_CODE: last.authCode,
    TRANS_ID: last.transId,
  };
  return {
    ErrMsg: `Record(s) found for ${oid}`,
    ProcReturnCode: '00',
    Response: 'Approved',
    OrderId: oid,
    TransId: last.transId,
    Extra: {
      ...summary,
      CAVV_3D: order.cavv,
      ECI_3D: order.eci,
      HOSTDATE: hostDate(last.at),
      HOST_REF_NUM: last.hostRefNum,
      MDSTATUS: order.mdStatus,
      NUMCODE: '0',
      ORDERSTATUS: Object.entries(summary).map(([k, v]) => `${k}:${v}`).join('\t'),
      PAN: order.maskedCreditCard,
      PROC_RET_CD: last.procReturnCode,
      SETTLEID: '',
      ...(last.voidedAt ? { VOID_DTTM: inquiryDate(last.voidedAt) } : {}),
      XID_3D: order.xid,
    },
  };
}

/**
 * ORDERHISTORY: every transaction of the order, newest first, as TRXn lines:
 * CHARGE_TYPE_CD, TRANS_STAT, ORIG_TRANS_AMT, CAPTURE_AMT (minor units), AUTH_DTTM, CAPTURE_DTTM,
 * VOID_DTTM, HOST_REF_NUM, AUTH_CODE, PROC_RET_CD, TRANS_ID, tab-separated.
 */
function orderHistory(ctx: ApiContext, oid: string): Answer {
  const order = ctx.state.orders.get(oid);
  if (!order) return { ErrMsg: `No record found for ${oid}`, ProcReturnCode: '99', Response: 'Declined', OrderId: oid, Extra: { NUMCODE: '0', TRXCOUNT: '0' } };
  const lines = [...order.transactions].reverse().map((t) =>
    [t.chargeType, t.status, t.amountMinor, t.amountMinor, inquiryDate(t.at), inquiryDate(t.at), t.voidedAt ? inquiryDate(t.voidedAt) : '', t.hostRefNum, t.authCode, t.procReturnCode, t.transId].join('\t'),
  );
  const trx = Object.fromEntries(lines.map((line, i) => [`TRX${i + 1}`, line]));
  return { ErrMsg: '', ProcReturnCode: '00', Response: 'Approved', OrderId: oid, Extra: { NUMCODE: '0', ...trx, TRXCOUNT: String(lines.length) } };
}

/** A sale, refund or void answer: Approved with ProcReturnCode 00, else Declined with the bank's code. */
function txAnswer(oid: string, tx: EstTransaction): Answer {
  const approved = tx.procReturnCode === '00';
  return {
    OrderId: oid,
    GroupId: oid,
    Response: approved ? 'Approved' : 'Declined',
    AuthCode: tx.authCode,
    HostRefNum: tx.hostRefNum,
    ProcReturnCode: tx.procReturnCode,
    TransId: tx.transId,
    ErrMsg: tx.errMsg,
    Extra: { SETTLEID: '', TRXDATE: trxDate(tx.at), ERRORCODE: approved ? '' : `ISO8583-${tx.procReturnCode}`, NUMCODE: tx.procReturnCode, HOSTDATE: hostDate(tx.at) },
  };
}

/** EST's refusal: Response Error, ProcReturnCode 99 (or the ISO code), ErrMsg and Extra.ERRORCODE. */
function error(ctx: ApiContext, oid: string, errMsg: string, errorCode: string, procReturnCode = '99'): Answer {
  return {
    OrderId: oid,
    GroupId: oid,
    Response: 'Error',
    AuthCode: '',
    HostRefNum: '',
    ProcReturnCode: procReturnCode,
    TransId: newTransId(ctx.now),
    ErrMsg: errMsg,
    Extra: { SETTLEID: '', TRXDATE: trxDate(ctx.now), ERRORCODE: errorCode, NUMCODE: `${procReturnCode}${errorCode.replace(/\D/g, '')}` },
  };
}

/** "1029-215844" */
function hostDate(d: Date): string {
  const iso = d.toISOString();
  return `${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 19).replaceAll(':', '')}`;
}
