// The SOAP service (POST .../VirtualPosService.svc/Basic): DrawBack (a refund of the whole sale),
// PartialDrawback (part of it), SaleReversal (the cancel) and GetMerchantOrderDetail (the order
// inquiry). Every request carries a VPosMessage signed like a payment's (MerchantId,
// MerchantOrderId, Amount, UserName, hashed password); a refund or cancel names the sale by the
// bank's OrderId, its RRN, Stan and ProvisionNumber. Answers are SOAP envelopes of
// <XResponse><XResult>: Results (errors), Success, Value.
import { requestHashOf, type KuveytTerminal } from './config.ts';
import type { KuveytState, Order } from './state.ts';
import { bankTime, child, readSoap, soapXml, text, type SoapAnswer, type Tree } from './xml.ts';

export interface SoapContext {
  state: KuveytState;
  terminal: KuveytTerminal;
  now: Date;
}

const REVERSALS = new Set(['DrawBack', 'PartialDrawback', 'SaleReversal']);

const failed = (code: string, message: string, responseCode = 'DbLayerError'): SoapAnswer => ({
  errors: [{ code, message }],
  value: { IsEnrolled: 'false', IsVirtual: 'false', ResponseCode: responseCode, OrderId: '0', TransactionTime: '0001-01-01T00:00:00', MerchantId: '', BusinessKey: '0' },
});

/** The account and the VPosMessage's signature; a failure when they are wrong. */
function accountProblem(request: Tree, ctx: SoapContext): SoapAnswer | null {
  const vpos = child(request, 'VPosMessage');
  const f = (name: string) => text(vpos, name);
  if (f('MerchantId') !== ctx.terminal.merchantId || f('CustomerId') !== ctx.terminal.customerId || text(request, 'MerchantId') !== ctx.terminal.merchantId) return failed('MerchantNotDefined', 'Üye işyeri bulunamadı.');
  if (f('UserName') !== ctx.terminal.userName) return failed('ApiUserNotDefined', 'Api kullanıcısı bulunamadı.');
  if (f('HashData') !== requestHashOf(f, ctx.terminal.password)) return failed('HashDataError', 'Şifrelenen veriler (Hashdata) uyuşmamaktadır.');
  return null;
}

/** A refund or cancel, when the sale it names is the bank's; else the refusal. */
function reverse(action: string, request: Tree, ctx: SoapContext): SoapAnswer {
  const vpos = child(request, 'VPosMessage');
  const order = ctx.state.orders.get(text(vpos, 'MerchantOrderId'));
  const sameSale = order !== undefined && order.responseCode === '00' && order.orderId === text(request, 'OrderId') && order.rrn === text(request, 'RRN') && order.stan === text(request, 'Stan') && order.provision === text(request, 'ProvisionNumber');
  if (!sameSale) return failed('OrderDataNotFound', 'Sipariş bulunamadı.');
  const amount = Number(text(request, 'Amount'));
  if (!Number.isInteger(amount) || amount <= 0 || text(vpos, 'Amount') !== String(amount)) return failed('InvalidAmount', 'Tutar geçersiz.');
  if (order.cancelled) return action === 'SaleReversal' ? failed('21', 'İşlem daha önce iptal edilmiştir.') : { value: reversalValue(order, '28', 'İptal Edilen İşlem İade Yapılamaz', null, ctx) };
  const left = order.amount - order.refunded;
  if (action === 'SaleReversal') {
    if (order.refunded > 0 || amount !== order.amount) return failed('InvalidRequestError', 'İade yapılmış ya da tutarı farklı bir satış iptal edilemez.');
    order.cancelled = true;
  } else if (action === 'DrawBack') {
    if (order.refunded > 0 || amount !== order.amount) return failed('InvalidRequestError', 'Tam iade satış tutarının tamamı için yapılır; kısmi iade yapınız.');
    order.refunded = amount;
  } else {
    if (amount > left) return failed('InvalidRequestError', 'İade tutarı kalan tutardan büyük olamaz.');
    if (amount === order.amount) return failed('', 'Kısmi iade işlemi, satışla aynı gün içerisindeyse tutarın tamamı için yapılamaz. Tutarın tamamı için iptal işlemi yapabilirsiniz.');
    order.refunded += amount;
  }
  return { value: reversalValue(order, '00', 'OTORİZASYON VERİLDİ', ctx.state.references(), ctx) };
}

function reversalValue(order: Order, code: string, message: string, refs: { rrn: string; stan: string; provision: string } | null, ctx: SoapContext): Tree {
  return {
    IsEnrolled: 'false',
    IsVirtual: 'false',
    ...(refs ? { ProvisionNumber: refs.provision } : {}),
    RRN: refs?.rrn ?? order.rrn,
    Stan: refs?.stan ?? order.stan,
    ResponseCode: code,
    ResponseMessage: message,
    OrderId: order.orderId,
    TransactionTime: bankTime(ctx.now),
    MerchantOrderId: order.merchantOrderId,
    CurrencyCode: `0${order.currency}`,
    MerchantId: '',
    BusinessKey: '0',
  };
}

const decimal = (minor: number): string => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;

/** LastOrderStatus: 1 sold, 4 wholly refunded, 5 partly refunded, 6 cancelled (mewebstudio's map). */
const lastStatus = (o: Order): string => (o.responseCode !== '00' ? '0' : o.cancelled ? '6' : o.refunded === 0 ? '1' : o.refunded === o.amount ? '4' : '5');

function orderContract(o: Order, ctx: SoapContext): Tree {
  return {
    IsSelected: 'false',
    IsSelectable: 'true',
    OrderId: o.orderId,
    MerchantOrderId: o.merchantOrderId,
    MerchantId: ctx.terminal.merchantId,
    CardNumber: o.cardMasked,
    OrderDate: o.orderDate,
    OrderStatus: o.responseCode === '00' ? '1' : '0',
    LastOrderStatus: lastStatus(o),
    OrderType: '1',
    TransactionStatus: o.responseCode === '00' ? '1' : '0',
    FirstAmount: decimal(o.amount),
    CancelAmount: o.cancelled ? decimal(o.amount) : '0.00',
    DrawbackAmount: decimal(o.refunded),
    ClosedAmount: '0.00',
    FEC: `0${o.currency}`,
    VPSEntryMode: 'ECOM',
    InstallmentCount: o.installments,
    TransactionSecurity: o.transactionSecurity,
    ResponseCode: o.responseCode,
    ResponseExplain: o.responseCode === '00' ? 'İşlem gerçekleştirildi.' : o.responseMessage,
    MerchantUserName: ctx.terminal.userName,
    ProvNumber: o.provision,
    RRN: o.rrn,
    Stan: o.stan,
  };
}

/** The order inquiry: every order of the MerchantOrderId (OrderId 0) or the one named; the dates are required. */
function inquire(request: Tree, ctx: SoapContext): SoapAnswer {
  if (text(request, 'StartDate') === '' || text(request, 'EndDate') === '') return failed('InvalidRequestError', 'StartDate ve EndDate gerekli.');
  const order = ctx.state.orders.get(text(request, 'MerchantOrderId'));
  const named = text(request, 'OrderId');
  if (order === undefined || (named !== '0' && named !== order.orderId)) return { value: {} };
  return { value: { orders: [orderContract(order, ctx)] } };
}

/** Answers one SOAP call; a body that is not one gets a SOAP fault. */
export function handleSoap(raw: string, ctx: SoapContext): { status: number; body: string } {
  const call = readSoap(raw);
  if (call === null || (!REVERSALS.has(call.action) && call.action !== 'GetMerchantOrderDetail')) {
    return { status: 500, body: '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>The message could not be processed.</faultstring></s:Fault></s:Body></s:Envelope>' };
  }
  const problem = accountProblem(call.request, ctx);
  const answer = problem ?? (call.action === 'GetMerchantOrderDetail' ? inquire(call.request, ctx) : reverse(call.action, call.request, ctx));
  return { status: 200, body: soapXml(call.action, answer) };
}
