// PayFor's XML API (POST /Gateway/XMLGate.aspx): the API user's sales (NonSecure Auth, and the 3D
// model's 3DModelPayment with the authentication's RequestGuid), refunds, voids, the order inquiry
// and the order's history report, each answered as PayFor answers (codes in emulators/README.md).
import { maskPan, messageOf, outcomeOf } from './cards.ts';
import { CURRENCIES, decimalOf, MBR_ID, minorUnits, type PayforTerminal } from './config.ts';
import { GOES_ON } from './gate.ts';
import type { Order, PayforState, Txn } from './state.ts';
import { historyReportXml, parsePayforRequest, payforResponseXml } from './xml.ts';

export interface XmlContext {
  state: PayforState;
  terminal: PayforTerminal;
  now: Date;
  /** The behaviour control "decline": the next sale is declined by the host with 05. */
  forceDecline: boolean;
}

type Fields = Record<string, string>;

/** A refusal of the request itself, before any transaction. */
class Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const NOT_FOUND = () => new Refusal('V013', 'Seçili İşlem Bulunamadı!');

/** The answer's body for one request. */
export function handleXml(raw: string, ctx: XmlContext): string {
  const request = parsePayforRequest(raw);
  if (request === null) return payforResponseXml({ ProcReturnCode: '96', ErrMsg: 'XML okunamadı' });
  try {
    authenticate(request, ctx.terminal);
    return route(request, ctx);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    const orderId = request.OrderId ?? request.OrgOrderId ?? '';
    return payforResponseXml({ AuthCode: '', HostRefNum: '', ProcReturnCode: error.code, TransId: orderId, ErrMsg: error.message });
  }
}

/** Whether a request can charge a card (the behaviour control "decline" applies to those). */
export function isCharge(raw: string): boolean {
  const request = parsePayforRequest(raw);
  return request !== null && ((request.SecureType === 'NonSecure' && request.TxnType === 'Auth') || request.SecureType === '3DModelPayment');
}

function authenticate(request: Fields, terminal: PayforTerminal): void {
  if (request.UserCode !== terminal.userCode || request.UserPass !== terminal.userPassword) throw new Refusal('V001', 'Kullanıcı adı veya şifre hatalı');
  // The 3D model's sale names only the user (mewebstudio/pos sends no MerchantId nor MbrId with it).
  if (request.MerchantId !== undefined && request.MerchantId !== terminal.merchantId) throw new Refusal('V004', 'Üye işyeri bulunamadı');
  if (request.MbrId !== undefined && request.MbrId !== MBR_ID) throw new Refusal('V004', 'Kurum kodu hatalı');
}

function route(request: Fields, ctx: XmlContext): string {
  const kind = `${request.SecureType ?? ''} ${request.TxnType ?? ''}`;
  if (kind === 'NonSecure Auth') return saleAnswer(sale(request, ctx), request);
  if (request.SecureType === '3DModelPayment') return saleAnswer(threeDSale(request, ctx), request);
  if (kind === 'NonSecure Refund') return reversalAnswer(refund(request, ctx), request);
  if (kind === 'NonSecure Void') return reversalAnswer(voidSale(request, ctx), request);
  if (kind === 'Inquiry OrderInquiry') return inquiry(request, ctx);
  if (kind === 'Report TxnHistory') return history(request, ctx);
  throw new Refusal('V111', `Desteklenmeyen işlem: ${kind.trim() || 'SecureType/TxnType eksik'}`);
}

function saleAnswer(txn: Txn, request: Fields): string {
  const orderId = request.OrderId ?? '';
  return payforResponseXml({ AuthCode: txn.authCode, HostRefNum: txn.hostRefNum, ProcReturnCode: txn.code, TransId: orderId, ErrMsg: txn.errMsg, CardHolderName: request.CardHolderName ?? '' });
}

function reversalAnswer(txn: Txn, request: Fields): string {
  return payforResponseXml({ AuthCode: txn.authCode, HostRefNum: txn.hostRefNum, ProcReturnCode: txn.code, TransId: request.OrgOrderId ?? '', ErrMsg: txn.errMsg });
}

function amountOf(request: Fields): number {
  const amount = minorUnits(request.PurchAmount ?? '');
  if (amount === null) throw new Refusal('V029', 'PurchAmount geçersiz');
  return amount;
}

/** A new order's approved sale, or its refusal; an order that already holds an approved sale is refused. */
function record(ctx: XmlContext, orderId: string, fields: Omit<Order, 'orderId' | 'txns'>, code: string, amount: number): Txn {
  const existing = ctx.state.orders.get(orderId);
  if (existing && ctx.state.sale(existing)) throw new Refusal('101310', 'Verilen sipariş no önceden kullanılmıştır.');
  const txn = ctx.state.newTxn('Auth', code, messageOf(code), amount, ctx.now);
  const order = existing ?? { orderId, ...fields, txns: [] };
  order.txns.push(txn);
  ctx.state.orders.set(orderId, order);
  return txn;
}

function sale(request: Fields, ctx: XmlContext): Txn {
  const orderId = request.OrderId ?? '';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(orderId)) throw new Refusal('V029', 'OrderId geçersiz');
  const amount = amountOf(request);
  const currency = request.Currency ?? '';
  if (!CURRENCIES.has(currency)) throw new Refusal('V029', 'Currency geçersiz');
  const pan = request.Pan ?? '';
  const expiry = request.Expiry ?? '';
  if (!/^\d{12,19}$/.test(pan)) throw new Refusal('M041', 'Geçersiz kart numarası');
  if (!/^(0[1-9]|1[0-2])\d{2}$/.test(expiry)) throw new Refusal('V029', 'Expiry AAYY olmalı');
  const outcome = outcomeOf(pan, expiry, ctx.now);
  const code = ctx.forceDecline ? '05' : outcome.code;
  return record(ctx, orderId, { currency, installments: request.InstallmentCount ?? '0', cardMasked: maskPan(pan), secureType: 'NonSecure', openBatch: outcome.openBatch === true }, code, amount);
}

/** The 3D model's sale: the authentication (by RequestGuid) stands for the card and the amount, once. */
function threeDSale(request: Fields, ctx: XmlContext): Txn {
  const session = ctx.state.sessionByGuid(request.RequestGuid ?? '');
  if (!session || session.secureType !== '3DModel') throw NOT_FOUND();
  if (session.orderId !== request.OrderId) throw new Refusal('V013', 'Doğrulama başka bir siparişe ait');
  if (session.used) throw new Refusal('V111', 'Bu 3D doğrulaması kullanılmış');
  if (!GOES_ON.has(session.threeDStatus ?? '')) throw new Refusal('V034', '3D Kullanıcı Doğrulama Adımı Başarısız');
  session.used = true;
  const outcome = outcomeOf(session.cardNumber, session.expiry, ctx.now);
  const code = ctx.forceDecline ? '05' : outcome.code;
  return record(ctx, session.orderId, { currency: session.currency, installments: session.installments, cardMasked: maskPan(session.cardNumber), secureType: '3DModel', openBatch: outcome.openBatch === true }, code, session.amount);
}

function orderOf(request: Fields, ctx: XmlContext): { order: Order; sale: Txn } {
  const order = ctx.state.orders.get(request.OrgOrderId ?? '');
  const sale = order ? ctx.state.sale(order) : undefined;
  if (!order || !sale) throw NOT_FOUND();
  if (request.Currency !== undefined && request.Currency !== order.currency) throw new Refusal('V029', 'Currency siparişin para birimi değil');
  return { order, sale };
}

/** A refund: refused while the sale is in the day's batch (V014), or above what is left (V015). */
function refund(request: Fields, ctx: XmlContext): Txn {
  const { order, sale } = orderOf(request, ctx);
  const amount = amountOf(request);
  let refusal: { code: string; message: string } | null = null;
  if (order.openBatch) refusal = { code: 'V014', message: 'Bu işlem geri alınamaz, lütfen asıl işlemi iptal edin.' };
  else if (amount > sale.amount - ctx.state.refunded(order)) refusal = { code: 'V015', message: 'İade tutarı kalan tutardan büyük' };
  const txn = ctx.state.newTxn('Refund', refusal?.code ?? '00', refusal?.message ?? 'Onaylandı', amount, ctx.now);
  order.txns.push(txn);
  return txn;
}

/** A void of the sale; refused once part of it was refunded. */
function voidSale(request: Fields, ctx: XmlContext): Txn {
  const { order, sale } = orderOf(request, ctx);
  const refunded = ctx.state.refunded(order) > 0;
  const txn = ctx.state.newTxn('Void', refunded ? 'V015' : '00', refunded ? 'İadesi yapılmış işlem iptal edilemez' : 'Onaylandı', sale.amount, ctx.now);
  if (!refunded) {
    sale.voidDate = ctx.now.toISOString().slice(0, 10).replace(/-/g, '');
    sale.voidTime = ctx.now.toISOString().slice(11, 19).replace(/:/g, '');
  }
  order.txns.push(txn);
  return txn;
}

/** The order inquiry: the order's sale (its last one) with its refunds and void, as mapStatusResponse reads it. */
function inquiry(request: Fields, ctx: XmlContext): string {
  const orderId = request.OrgOrderId ?? '';
  const order = ctx.state.orders.get(orderId);
  const sale = order?.txns.filter((t) => t.type === 'Auth').at(-1);
  if (!order || !sale) {
    return payforResponseXml({ RequestGuid: '0', OrderId: orderId, SecureType: 'Inquiry', TxnType: 'OrderInquiry', OrgOrderId: orderId, ErrMsg: 'Seçili İşlem Bulunamadı!', ProcReturnCode: 'V013' });
  }
  const refunded = ctx.state.refunded(order);
  return payforResponseXml({
    RequestGuid: sale.requestGuid,
    InsertDatetime: sale.insertDatetime,
    MbrId: MBR_ID,
    MerchantID: ctx.terminal.merchantId,
    OrderId: orderId,
    SecureType: order.secureType,
    PurchAmount: decimalOf(sale.amount),
    Currency: order.currency,
    TxnType: 'Auth',
    InstallmentCount: order.installments,
    ErrMsg: sale.errMsg,
    TxnResult: sale.code === '00' ? 'Success' : 'Failed',
    AuthCode: sale.authCode,
    HostRefNum: sale.hostRefNum,
    ProcReturnCode: sale.code,
    VoidDate: sale.voidDate,
    VoidTime: sale.voidTime || '0',
    CardMask: order.cardMasked,
    RefundedAmount: decimalOf(refunded),
    IsVoided: String(sale.voidDate !== ''),
    IsRefunded: String(refunded > 0 && refunded >= sale.amount),
  });
}

/** The order's history report: every sale, refund and void, oldest first. */
function history(request: Fields, ctx: XmlContext): string {
  const orderId = request.OrderId ?? '';
  const order = ctx.state.orders.get(orderId);
  if (!order) return historyReportXml([{ RequestGuid: '0', OrderId: orderId, SecureType: 'Report', TxnType: 'TxnHistory', OrgOrderId: orderId, ErrMsg: 'Seçili İşlem Bulunamadı!', TxnResult: 'Failed', ProcReturnCode: 'V013' }]);
  return historyReportXml(
    order.txns.map((t) => ({
      RequestGuid: t.requestGuid,
      InsertDatetime: t.insertDatetime,
      MbrId: MBR_ID,
      MerchantID: ctx.terminal.merchantId,
      OrderId: orderId,
      SecureType: t.type === 'Auth' ? order.secureType : 'NonSecure',
      PurchAmount: decimalOf(t.amount),
      Currency: order.currency,
      TxnType: t.type,
      OrgOrderId: t.type === 'Auth' ? '' : orderId,
      InstallmentCount: order.installments,
      ErrMsg: t.errMsg,
      TxnResult: t.code === '00' ? 'Success' : 'Failed',
      AuthCode: t.authCode,
      HostRefNum: t.hostRefNum,
      ProcReturnCode: t.code,
      VoidDate: t.voidDate,
      CardMask: order.cardMasked,
    })),
  );
}
