// What each XML transaction does to the bank's orders. Amounts are integer minor units.
import { maskPan, outcomeOf } from './cards.ts';
import { refuse } from './answers.ts';
import type { GarantiState, Order, Txn } from './state.ts';
import type { GarantiCredentials } from './config.ts';
import { text } from './xml.ts';

/** What an XML request is answered with: the emulator's state, the terminal's credentials, the time, the controls. */
export interface XmlContext {
  state: GarantiState;
  creds: GarantiCredentials;
  now: Date;
  /** The behaviour control "decline": the next sale is declined by the host with 05. */
  forceDecline: boolean;
}

export interface TxnContext extends XmlContext {
  request: Record<string, unknown>;
  orderId: string;
}

export interface TxnResult {
  /** The transaction made (or repeated); absent for inquiries. */
  txn?: Txn;
  /** Extra children of the answer's <Order>. */
  order?: Record<string, unknown>;
  cardNumber?: string;
}

/** MDSTATUS values GVP counts as authenticated (full, or attempt/half-secure). */
export const AUTHENTICATED = new Set(['1', '2', '3', '4']);

/**
 * A sale: with a card (non-3D), or with the authentication of a 3-D Secure session (CardholderPresentCode 13,
 * Secure3D/Md). The same sale sent again for the same order answers the approved transaction again; a
 * different one under an order id that is already paid is refused.
 */
export function sale(ctx: TxnContext): TxnResult {
  const { state, request, orderId } = ctx;
  const amount = Number(text(request, 'Transaction', 'Amount'));
  const currency = text(request, 'Transaction', 'CurrencyCode');
  const existing = state.orders.get(orderId);
  const paid = existing ? state.sale(existing) : undefined;
  if (existing && paid) {
    if (paid.amount === amount && existing.currency === currency) return { txn: paid };
    throw refuse.duplicateOrder();
  }
  const card = cardOf(ctx, amount, currency);
  const outcome = ctx.forceDecline ? { code: '05' } : outcomeOf(card.number, card.expiry, ctx.now);
  const order: Order = existing ?? { orderId, currency, installments: text(request, 'Transaction', 'InstallmentCnt'), cardMasked: maskPan(card.number), txns: [] };
  const txn = state.newTxn('sales', outcome.code, amount, ctx.now);
  order.txns.push(txn);
  state.orders.set(orderId, order);
  return { txn, cardNumber: card.number };
}

function cardOf(ctx: TxnContext, amount: number, currency: string): { number: string; expiry: { month: string; year: string } | null } {
  const { request, orderId } = ctx;
  const md = text(request, 'Transaction', 'Secure3D', 'Md');
  if (md !== '' || text(request, 'Transaction', 'CardholderPresentCode') === '13') {
    const session = ctx.state.sessionByMd(md);
    if (!session) throw refuse.threeD('Secure3D/Md is not a 3-D Secure authentication of this terminal');
    if (session.used) throw refuse.threeD('this 3-D Secure authentication was already used');
    if (session.orderId !== orderId) throw refuse.threeD('the 3-D Secure authentication is for another order');
    if (Number(session.amount) !== amount || session.currency !== currency) throw refuse.threeD('amount or currency differ from the 3-D Secure authentication');
    if (!AUTHENTICATED.has(session.mdStatus ?? '')) throw refuse.threeD(`the shopper was not authenticated (mdstatus ${session.mdStatus ?? 'none'})`);
    if (text(request, 'Transaction', 'Secure3D', 'TxnID') !== session.xid || text(request, 'Transaction', 'Secure3D', 'AuthenticationCode') !== session.cavv) {
      throw refuse.threeD('Secure3D/TxnID or AuthenticationCode differ from the authentication');
    }
    session.used = true;
    return { number: session.cardNumber, expiry: session.expiry };
  }
  const number = text(request, 'Card', 'Number');
  const expireDate = text(request, 'Card', 'ExpireDate');
  if (!/^\d{12,19}$/.test(number)) throw refuse.invalid('Card/Number must be 12-19 digits');
  if (!/^\d{4}$/.test(expireDate)) throw refuse.invalid('Card/ExpireDate must be MMYY');
  return { number, expiry: { month: expireDate.slice(0, 2), year: expireDate.slice(2) } };
}

/**
 * A partial or full refund of the approved sale; never more than what remains. A refund the order
 * refuses stays in its history as a declined refund (Status 01, ReturnCode 92), as GVP lists one
 * (mewebstudio/pos GarantiPosResponseDataMapperTest orderHistoryTestDataProvider, success_multi_tx).
 */
export function refund(ctx: TxnContext): TxnResult {
  const { state, request } = ctx;
  const order = orderOf(state, ctx.orderId);
  const amount = Number(text(request, 'Transaction', 'Amount'));
  if (text(request, 'Transaction', 'CurrencyCode') !== order.currency) throw refuse.invalidReversal('Transaction/CurrencyCode differs from the sale');
  const refused = (sysErrMsg: string) => {
    order.txns.push(state.newTxn('refund', '92', amount, ctx.now));
    return refuse.invalidReversal(sysErrMsg);
  };
  const paid = state.sale(order);
  if (!paid) throw refused('the order has no approved sale to refund');
  const remaining = paid.amount - state.refunded(order);
  if (amount > remaining) throw refused(`refund amount ${amount} exceeds what remains to refund (${remaining})`);
  const txn = state.newTxn('refund', '00', amount, ctx.now);
  order.txns.push(txn);
  return { txn };
}

/**
 * A void: of the transaction whose RetrefNum is Transaction/OriginalRetrefNum, else of the last refund that
 * stands, else of the sale. A sale with refunds standing is not voided (void the refunds first).
 */
export function voidTxn(ctx: TxnContext): TxnResult {
  const { state, request } = ctx;
  const order = orderOf(state, ctx.orderId);
  const standing = order.txns.filter((t) => t.code === '00' && !t.voided && t.type !== 'void');
  const original = text(request, 'Transaction', 'OriginalRetrefNum');
  const target = original ? standing.find((t) => t.retrefNum === original) : (standing.filter((t) => t.type === 'refund').at(-1) ?? standing.find((t) => t.type === 'sales'));
  if (!target) throw refuse.invalidReversal('nothing on this order can be voided');
  if (target.type === 'sales' && state.refunded(order) > 0) throw refuse.invalidReversal('the sale has refunds: void them first');
  const txn = state.newTxn('void', '00', target.amount, ctx.now);
  target.voided = true;
  target.voidDate = txn.provDate;
  order.txns.push(txn);
  return { txn };
}

/** orderinq: the order's status and its transactions; orderhistoryinq: the transactions alone. */
export function inquiry(ctx: TxnContext, type: 'orderinq' | 'orderhistoryinq'): TxnResult {
  const order = ctx.state.orders.get(ctx.orderId);
  // The history's "no record for this order id" (mewebstudio/pos fail_order_not_found: ReasonCode 0108).
  if (!order) throw type === 'orderhistoryinq' ? refuse.noOrder() : refuse.notFound();
  const history = { OrderTxnList: { OrderTxn: order.txns.map((t) => historyEntry(order, t)) } };
  if (type === 'orderhistoryinq') return { order: { OrderHistInqResult: history } };
  return { order: { OrderInqResult: inquiryResult(ctx.state, order), OrderHistInqResult: history } };
}

function orderOf(state: GarantiState, orderId: string): Order {
  const order = state.orders.get(orderId);
  if (!order) throw refuse.notFound();
  return order;
}

/** APPROVED (sale stands, maybe partly refunded), REFUNDED (wholly), VOID (sale voided), DECLINED (no sale approved). */
function statusOf(state: GarantiState, order: Order): string {
  const paid = state.sale(order);
  if (paid) return state.refunded(order) === paid.amount ? 'REFUNDED' : 'APPROVED';
  return order.txns.some((t) => t.type === 'sales' && t.code === '00') ? 'VOID' : 'DECLINED';
}

function inquiryResult(state: GarantiState, order: Order): Record<string, string> {
  const last = order.txns.filter((t) => t.type === 'sales').at(-1)!;
  return {
    ChargeType: 'S',
    PreAuthAmount: '0',
    PreAuthDate: '',
    AuthAmount: String(state.charged(order)),
    AuthDate: last.code === '00' ? last.provDate : '',
    RefundedAmount: String(state.refunded(order)),
    RecurringInfo: 'N',
    Status: statusOf(state, order),
    InstallmentCnt: order.installments || '0',
    CardNumberMasked: order.cardMasked,
    Code: last.code,
    ReasonCode: last.code,
    SysErrMsg: '',
    RetrefNum: last.retrefNum,
    AuthCode: last.authCode,
    BatchNum: last.batchNum,
    SequenceNum: last.sequenceNum,
    ProvDate: last.provDate,
  };
}

/** An OrderTxn: Status is '00' or, for a refusal, '01' with the host's code in ReturnCode. */
function historyEntry(order: Order, t: Txn): Record<string, string> {
  return {
    Type: t.type,
    Status: t.code === '00' ? '00' : '01',
    PreAuthAmount: '0',
    AuthAmount: String(t.amount),
    AuthDate: t.provDate.slice(0, 8),
    VoidDate: t.voidDate,
    RetrefNum: t.retrefNum,
    AuthCode: t.authCode,
    ReturnCode: t.code,
    BatchNum: t.batchNum,
    InstallmentCnt: order.installments || '0',
    CurrencyCode: order.currency,
    Settlement: 'N',
  };
}
