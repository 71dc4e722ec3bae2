// InterPOS's API (POST /mpi/Default.aspx with SecureType NonSecure): a form in, `Name=value;;...`
// out (as mewebstudio/pos InterPosSerializer reads it). Auth is a sale (with the card) or the 3D
// model's sale (with MD, PayerTxnId, Eci, PayerAuthenticationCode from the callback); Refund and
// Void name the order by orgOrderId; StatusHistory tells the order's sale, its void and the total
// refunded. Refusals of the emulator's own (mewebstudio/pos lists 81, E31 and E39 only, and
// InterPOS's document is not public): 81 a wrong ShopCode, UserCode or UserPass; E39 an order it
// does not know; E31 an order id already used; 12 a refund or void the order's state does not
// allow; 13 a refund above what is left; 99 a request it cannot read.
import { maskPan, messageOf, outcomeOf } from './cards.ts';
import { CURRENCIES, minorOf, trxDate, turkishAmount, type InterPosCredentials } from './config.ts';
import type { InterPosState, Order } from './state.ts';

export interface ApiContext {
  state: InterPosState;
  creds: InterPosCredentials;
  now: Date;
  forceDecline: boolean;
}

type Answer = Record<string, string>;

/** .NET's DateTime.MinValue as InterPOS writes a VoidDate that never happened. */
const NEVER = '1.1.0001 00:00:00';

/** The answer body: `Name=value` joined by ";;". */
export function encodeAnswer(answer: Answer): string {
  return Object.entries(answer)
    .map(([name, value]) => `${name}=${value}`)
    .join(';;');
}

const MESSAGES: Record<string, string> = {
  '81': 'Terminal Aktif Degil',
  E31: 'Siparis numarasi daha once kullanilmis',
  E39: 'Islem bulunamadi',
  '12': 'Gecersiz islem',
  '13': 'Gecersiz tutar',
  '99': 'Istek okunamadi',
};

/** The answer of a payment, a refund or a void; `orderId` is the merchant's or a system id. */
function txnAnswer(orderId: string, code: string, extra: Partial<Answer> = {}): Answer {
  const approved = code === '00';
  return {
    OrderId: orderId,
    ProcReturnCode: code,
    HostRefNum: '',
    AuthCode: '',
    TxnResult: approved ? 'Success' : 'Failed',
    ErrorMessage: approved ? '' : (MESSAGES[code] ?? messageOf(code)),
    CampanyId: '',
    CampanyInstallCount: '0',
    TRXDATE: '',
    TransId: '',
    ErrorCode: code === '81' ? 'B810002' : '',
    EarnedBonus: '0,00',
    UsedBonus: '0,00',
    SurchargeAmount: '0',
    Amount: '0',
    CardHolderName: '',
    ...extra,
  };
}

export function handleApi(raw: string, ctx: ApiContext): string {
  const form = new URLSearchParams(raw);
  const field = (name: string) => form.get(name) ?? '';
  const { creds } = ctx;
  if (field('ShopCode') !== creds.shopCode || field('UserCode') !== creds.userCode || field('UserPass') !== creds.userPassword) {
    return encodeAnswer(txnAnswer(field('OrderId') || ctx.state.systemId(), '81'));
  }
  switch (field('TxnType')) {
    case 'Auth':
      return encodeAnswer(form.has('MD') ? threeDSale(field, ctx) : sale(field, ctx));
    case 'Refund':
      return encodeAnswer(refund(field, ctx));
    case 'Void':
      return encodeAnswer(voidSale(field, ctx));
    case 'StatusHistory':
      return encodeAnswer(statusHistory(field, ctx));
    default:
      return encodeAnswer(txnAnswer(field('OrderId') || ctx.state.systemId(), '99'));
  }
}

type Field = (name: string) => string;

function sale(field: Field, ctx: ApiContext): Answer {
  const orderId = field('OrderId');
  const amount = minorOf(field('PurchAmount'));
  if (!/^[A-Za-z0-9]{1,64}$/.test(orderId) || amount === null || !CURRENCIES.has(field('Currency')) || !/^\d{12,19}$/.test(field('Pan'))) return txnAnswer(orderId, '99');
  if (ctx.state.orders.has(orderId)) return txnAnswer(orderId, 'E31');
  const code = ctx.forceDecline ? '05' : outcomeOf(field('Pan'), field('Expiry'), ctx.now).code;
  return book(orderId, amount, code, { currency: field('Currency'), installments: field('InstallmentCount'), cardMasked: maskPan(field('Pan')) }, ctx);
}

/** The 3D model's sale: the session the MD names must be authenticated, unused, and for this order, amount, currency and instalments. */
function threeDSale(field: Field, ctx: ApiContext): Answer {
  const orderId = field('OrderId');
  const session = ctx.state.sessionByMd(field('MD'));
  const matches =
    session !== undefined &&
    session.secureType === '3DModel' &&
    !session.used &&
    session.eci !== '' &&
    session.orderId === orderId &&
    session.amount === minorOf(field('PurchAmount')) &&
    session.currency === field('Currency') &&
    session.installments === field('InstallmentCount') &&
    session.payerTxnId === field('PayerTxnId') &&
    session.eci === field('Eci') &&
    session.cavv === field('PayerAuthenticationCode');
  if (!matches) return txnAnswer(orderId, 'E39', { ErrorMessage: '3D dogrulamasi bulunamadi veya eslesmiyor' });
  if (ctx.state.orders.has(orderId)) return txnAnswer(orderId, 'E31');
  session.used = true;
  const code = ctx.forceDecline || session.forceDecline ? '05' : outcomeOf(session.cardNumber, session.expiry, ctx.now).code;
  return book(orderId, session.amount, code, { currency: session.currency, installments: session.installments, cardMasked: maskPan(session.cardNumber) }, ctx);
}

function book(orderId: string, amount: number, code: string, order: Pick<Order, 'currency' | 'installments' | 'cardMasked'>, ctx: ApiContext): Answer {
  const txn = ctx.state.newTxn('Auth', code, amount, trxDate(ctx.now));
  ctx.state.orders.set(orderId, { orderId, ...order, txns: [txn], voidDate: '' });
  return txnAnswer(orderId, code, { HostRefNum: txn.hostRefNum, AuthCode: txn.authCode, TRXDATE: txn.date, TransId: txn.transId, Amount: turkishAmount(amount) });
}

function refund(field: Field, ctx: ApiContext): Answer {
  const { state } = ctx;
  const order = state.orders.get(field('orgOrderId'));
  const amount = minorOf(field('PurchAmount'));
  const systemId = state.systemId();
  if (order === undefined) return txnAnswer(systemId, 'E39');
  if (amount === null) return txnAnswer(systemId, '99');
  const sold = state.sale(order);
  if (sold === undefined || order.voidDate !== '') return txnAnswer(systemId, '12');
  if (state.refunded(order) + amount > sold.amount) return txnAnswer(systemId, '13');
  const txn = state.newTxn('Refund', '00', amount, trxDate(ctx.now));
  order.txns.push(txn);
  return txnAnswer(systemId, '00', { HostRefNum: txn.hostRefNum, AuthCode: txn.authCode, TRXDATE: txn.date, TransId: txn.transId, Amount: turkishAmount(amount) });
}

/** A void of the sale: refused once refunds were made or the sale is voided already. */
function voidSale(field: Field, ctx: ApiContext): Answer {
  const { state } = ctx;
  const order = state.orders.get(field('orgOrderId'));
  const systemId = state.systemId();
  if (order === undefined) return txnAnswer(systemId, 'E39');
  const sold = state.sale(order);
  if (sold === undefined || order.voidDate !== '' || state.refunded(order) > 0) return txnAnswer(systemId, '12');
  order.voidDate = voidDate(ctx.now);
  const txn = state.newTxn('Void', '00', sold.amount, trxDate(ctx.now));
  order.txns.push(txn);
  return txnAnswer(systemId, '00', { TRXDATE: txn.date, TransId: txn.transId, Amount: turkishAmount(sold.amount) });
}

/** The order's sale as StatusHistory tells it (the fields of mewebstudio/pos's sample answer). */
function statusHistory(field: Field, ctx: ApiContext): Answer {
  const order = ctx.state.orders.get(field('orgOrderId'));
  const sold = order === undefined ? undefined : ctx.state.sale(order);
  const latest = order?.txns.find((t) => t.type === 'Auth');
  const answer: Answer = {
    OrderId: ctx.state.systemId(),
    ProcReturnCode: 'E39',
    BatchNo: '',
    TransId: '',
    TRXDATE: '',
    TxnStat: '',
    PurchAmount: '0',
    VoidDate: NEVER,
    TxnStatus: '',
    ChargeTypeCd: '',
    ErrorCode: '',
    ErrorMessage: MESSAGES.E39!,
    RefundedAmount: '0',
    AuthCode: '',
  };
  if (order === undefined || latest === undefined) return answer;
  const voided = order.voidDate !== '';
  return {
    ...answer,
    ProcReturnCode: latest.code,
    BatchNo: '1',
    TransId: latest.transId,
    TRXDATE: latest.date,
    TxnStat: sold === undefined ? 'N' : voided ? 'V' : 'Y',
    PurchAmount: turkishAmount(latest.amount),
    VoidDate: voided ? order.voidDate : NEVER,
    TxnStatus: sold === undefined ? 'Failed' : 'Success',
    ChargeTypeCd: 'S',
    ErrorMessage: sold === undefined ? messageOf(latest.code) : '',
    RefundedAmount: turkishAmount(ctx.state.refunded(order)),
    AuthCode: latest.authCode,
  };
}

/** VoidDate as InterPOS writes it: "9.8.2024 10:40:34" (no leading zeros). */
function voidDate(now: Date): string {
  const iso = now.toISOString();
  return `${now.getUTCDate()}.${now.getUTCMonth() + 1}.${now.getUTCFullYear()} ${iso.slice(11, 19)}`;
}
