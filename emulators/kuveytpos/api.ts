// The payment API: a sale without 3-D (POST .../Non3DPayGate, with the card) and the 3-D model's
// provision (POST .../ThreeDModelProvisionGate, with the authentication's MD). Each answers a
// <VPosTransactionResponseContract>; an approved sale is signed (HashData over MerchantOrderId,
// RRN, ResponseCode and OrderId with the hashed password), as the bank's answers are.
import { maskPan, outcomeOf, type IssuerAnswer } from '../bank/cards.ts';
import { CURRENCIES, requestHashOf, signSale, type KuveytTerminal } from './config.ts';
import { mdOf } from './gate.ts';
import type { KuveytState, Order } from './state.ts';
import { bankTime, contractXml, readMessage, text, type Tree } from './xml.ts';

export interface ApiContext {
  state: KuveytState;
  terminal: KuveytTerminal;
  now: Date;
  forceDecline: boolean;
}

const CODES: Readonly<Record<IssuerAnswer, { code: string; message: string }>> = {
  approved: { code: '00', message: 'OTORİZASYON VERİLDİ' },
  insufficient_funds: { code: '51', message: 'YETERSİZ BAKİYE' },
  do_not_honour: { code: '05', message: 'RED-ONAYLANMADI' },
  expired: { code: '54', message: 'VADESİ DOLMUŞ KART' },
};

const refusal = (code: string, message: string): string =>
  contractXml({ IsEnrolled: 'true', IsVirtual: 'false', ResponseCode: code, ResponseMessage: message, OrderId: '0', TransactionTime: '0001-01-01T00:00:00', BusinessKey: '0' });

/** The request's account and signature, and its money; a refusal's XML when something is wrong. */
function requestProblem(m: Tree, ctx: ApiContext): string | null {
  const f = (name: string) => text(m, name);
  if (f('MerchantId') !== ctx.terminal.merchantId || f('CustomerId') !== ctx.terminal.customerId) return refusal('MerchantNotDefined', 'Üye işyeri bulunamadı.');
  if (f('UserName') !== ctx.terminal.userName) return refusal('ApiUserNotDefined', 'Api kullanıcısı bulunamadı.');
  if (f('HashData') !== requestHashOf(f, ctx.terminal.password)) return refusal('HashDataError', 'Şifrelenen veriler (Hashdata) uyuşmamaktadır.');
  if (!/^[1-9]\d{0,14}$/.test(f('Amount')) || !CURRENCIES.has(f('CurrencyCode'))) return refusal('InvalidAmount', 'Tutar veya para birimi geçersiz.');
  if (ctx.state.orders.get(f('MerchantOrderId'))?.responseCode === '00') return refusal('MerchantOrderIdAlreadyExists', 'Sipariş numarası daha önce kullanılmıştır.');
  return null;
}

interface Sale {
  merchantOrderId: string;
  orderId: string;
  amount: number;
  currency: string;
  installments: string;
  cardNumber: string;
  expiry: { month: string; year: string };
  transactionSecurity: string;
}

/** Books the sale (approved or refused) and answers it. */
function sell(sale: Sale, ctx: ApiContext): string {
  const issuer = CODES[ctx.forceDecline ? 'do_not_honour' : outcomeOf(sale.cardNumber, sale.expiry, ctx.now).answer];
  const approved = issuer.code === '00';
  const refs = approved ? ctx.state.references() : { rrn: '', stan: '', provision: '' };
  const order: Order = {
    merchantOrderId: sale.merchantOrderId,
    orderId: sale.orderId,
    amount: sale.amount,
    currency: sale.currency.replace(/^0/, ''),
    installments: sale.installments,
    cardMasked: maskPan(sale.cardNumber),
    transactionSecurity: sale.transactionSecurity,
    responseCode: issuer.code,
    responseMessage: issuer.message,
    ...refs,
    refunded: 0,
    cancelled: false,
    orderDate: bankTime(ctx.now),
  };
  ctx.state.orders.set(order.merchantOrderId, order);
  const signed = { MerchantOrderId: order.merchantOrderId, RRN: order.rrn, ResponseCode: issuer.code, OrderId: order.orderId };
  return contractXml({
    VPosMessage: { OrderId: order.orderId, MerchantId: ctx.terminal.merchantId, SubMerchantId: '0', CustomerId: ctx.terminal.customerId, UserName: '', HashPassword: '', CardNumber: order.cardMasked, BatchID: '545', InstallmentCount: order.installments, Amount: String(order.amount), MerchantOrderId: order.merchantOrderId, FECAmount: '0', CurrencyCode: order.currency, TransactionSecurity: order.transactionSecurity },
    IsEnrolled: 'true',
    IsVirtual: 'false',
    ...(approved ? { ProvisionNumber: order.provision, RRN: order.rrn, Stan: order.stan } : {}),
    ResponseCode: issuer.code,
    ResponseMessage: issuer.message,
    OrderId: order.orderId,
    TransactionTime: order.orderDate,
    MerchantOrderId: order.merchantOrderId,
    HashData: signSale(signed, ctx.terminal.password),
    BusinessKey: '0',
  });
}

/** Non3DPayGate: a sale with the card. */
export function non3dSale(raw: string, ctx: ApiContext): string {
  const m = readMessage(raw);
  if (m === null) return refusal('InvalidRequest', 'Geçersiz istek.');
  const problem = requestProblem(m, ctx);
  if (problem !== null) return problem;
  if (text(m, 'TransactionSecurity') !== '1') return refusal('InvalidTransactionSecurity', 'İşlem türü geçersizdir.');
  const f = (name: string) => text(m, name);
  if (!/^\d{12,19}$/.test(f('CardNumber'))) return refusal('InvalidCardInfo', 'Kart bilgileri geçersiz.');
  return sell(
    {
      merchantOrderId: f('MerchantOrderId'),
      orderId: ctx.state.nextOrderId(),
      amount: Number(f('Amount')),
      currency: f('CurrencyCode'),
      installments: f('InstallmentCount'),
      cardNumber: f('CardNumber'),
      expiry: { month: f('CardExpireDateMonth'), year: f('CardExpireDateYear') },
      transactionSecurity: '1',
    },
    ctx,
  );
}

/** ThreeDModelProvisionGate: the sale of an authentication, once, for what was authenticated. */
export function provision(raw: string, ctx: ApiContext): string {
  const m = readMessage(raw);
  if (m === null) return refusal('InvalidRequest', 'Geçersiz istek.');
  const problem = requestProblem(m, ctx);
  if (problem !== null) return problem;
  const md = mdOf(m);
  if (md === '') return refusal('EmptyMDException', 'Geçerli bir MD değeri giriniz.');
  const auth = ctx.state.byMd(md);
  const f = (name: string) => text(m, name);
  if (!auth || !auth.authenticated || auth.used || auth.merchantOrderId !== f('MerchantOrderId')) return refusal('MetaDataNotFound', 'Ödeme detayı bulunamadı.');
  if (String(auth.amount) !== f('Amount') || auth.currency !== f('CurrencyCode') || auth.installments !== f('InstallmentCount')) return refusal('MetaDataNotFound', 'Ödeme detayı doğrulananla uyuşmuyor.');
  auth.used = true;
  return sell({ ...auth, transactionSecurity: '3' }, ctx);
}

/** Whether a request can charge a card (the `decline` rule applies to these only). */
export const charges = (raw: string): boolean => readMessage(raw) !== null;
