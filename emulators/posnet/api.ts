// The emulated PosNet XML service (PosnetWebService/XML): a form post whose `xmldata` field is a
// <posnetRequest>; each request names the merchant (mid, tid) and one operation. Answers are
// <posnetResponse> documents: approved "1" done, "0" refused with respCode / respText, "2" an order
// id used before. Codes a real PosNet documents (via mewebstudio/pos) are used where known: 0148
// wrong MID/TID, E216 wrong MAC, 0127 order id used, 0123 no such transaction, the issuer's 0051,
// 0005, 0054; the emulator's own (E219 seal not recognised, 0131 refund over the sale, 0132
// reverse not possible) are marked so in emulators/README.md.
import { timingSafeEqual } from 'node:crypto';
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { maskPan, outcomeOf, type IssuerAnswer } from '../bank/cards.ts';
import { authCode, hostlogkey, type Order, type PosnetBooks } from './books.ts';
import { merchantMac, resolutionMac, seal, type Merchant } from './hash.ts';

type Node = Record<string, unknown>;
type Answer = Record<string, unknown>;

export interface ApiContext {
  books: PosnetBooks;
  merchant: Merchant;
  bankKey: Buffer;
  now: Date;
  forceDecline: boolean;
}

const parser = new XMLParser({ parseTagValue: false, ignoreAttributes: true, trimValues: true, htmlEntities: false });
const builder = new XMLBuilder({ format: false, suppressEmptyNode: false });

/** The <posnetRequest> of a form body; null when it has none. */
export function parseRequest(raw: string): Node | null {
  const xml = new URLSearchParams(raw).get('xmldata');
  if (xml === null) return null;
  try {
    const root = (parser.parse(xml) as { posnetRequest?: unknown }).posnetRequest;
    return root !== null && typeof root === 'object' ? (root as Node) : null;
  } catch {
    return null;
  }
}

export function answerXml(answer: Answer): string {
  return `<?xml version="1.0" encoding="ISO-8859-9"?><posnetResponse>${builder.build(answer) as string}</posnetResponse>`;
}

/** Requests that can charge a card (a decline rule applies to them). */
export function charges(request: Node | null): boolean {
  return request !== null && ('sale' in request || 'oosTranData' in request);
}

const refusal = (respCode: string, respText: string, approved = '0'): Answer => ({ approved, respCode, respText });
const ISSUER: Record<Exclude<IssuerAnswer, 'approved'>, Answer> = {
  insufficient_funds: refusal('0051', 'YETERSIZ BAKIYE'),
  do_not_honour: refusal('0005', 'ISLEM ONAYLANMADI'),
  expired: refusal('0054', 'KART SURESI DOLMUS'),
};
const NOT_FOUND = refusal('0123', 'ISLEM BULUNAMADI');

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const pad24 = (orderId: string) => orderId.padStart(24, '0');

/** "1.000,16" as PosNet's agreement writes amounts. */
function statusAmount(minor: bigint): string {
  const major = (minor / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${major},${(minor % 100n).toString().padStart(2, '0')}`;
}

const tranDate = (now: Date) => now.toISOString().replace('T', ' ').replace('Z', '');

export function handle(ctx: ApiContext, request: Node | null): Answer {
  if (request === null) return refusal('0001', 'XML OKUNAMADI');
  if (str(request.mid) !== ctx.merchant.merchantId || str(request.tid) !== ctx.merchant.terminalId) return refusal('0148', 'INVALID MID TID IP.');
  const op = Object.keys(request).find((k) => !['mid', 'tid', 'tranDateRequired'].includes(k)) ?? '';
  const body = (request[op] ?? {}) as Node;
  switch (op) {
    case 'oosRequestData':
      return oosRequestData(ctx, body);
    case 'oosResolveMerchantData':
      return resolve(ctx, body);
    case 'oosTranData':
      return tranData(ctx, body);
    case 'sale':
      return sale(ctx, body);
    case 'return':
      return refund(ctx, body);
    case 'reverse':
      return reverse(ctx, body);
    case 'agreement':
      return agreement(ctx, body);
    default:
      return refusal('0001', `BILINMEYEN ISLEM ${op}`);
  }
}

function expiryOf(expDate: string): { month: string; year: string } {
  return { year: expDate.slice(0, 2), month: expDate.slice(2, 4) };
}

function oosRequestData(ctx: ApiContext, b: Node): Answer {
  if (str(b.posnetid) !== ctx.merchant.posnetId) return refusal('0148', 'INVALID POSNET ID');
  const xid = str(b.XID);
  const amount = str(b.amount);
  if (!/^[A-Za-z0-9]{20}$/.test(xid)) return refusal('0001', 'XID 20 KARAKTER OLMALI');
  if (!/^[1-9]\d*$/.test(amount)) return refusal('0013', 'GECERSIZ TUTAR');
  const session = ctx.books.open({ xid, amount: BigInt(amount), currency: str(b.currencyCode), installment: str(b.installment), cardNumber: str(b.ccno), expDate: str(b.expDate) });
  const data1 = `${session.id.toUpperCase()}${seal(ctx.bankKey, 'data1', session.id).slice(0, 40)}`;
  const data2 = seal(ctx.bankKey, 'data2', session.id).slice(0, 48);
  return { approved: '1', oosRequestDataResponse: { data1, data2, sign: seal(ctx.bankKey, data1, data2) } };
}

/** The session the packets were sealed for; null when the seal does not check. */
function sessionOf(ctx: ApiContext, b: Node) {
  const bank = str(b.bankData);
  const merchant = str(b.merchantData);
  const sign = str(b.sign);
  const session = ctx.books.sessions.get(bank.slice(0, 24).toLowerCase());
  if (!session?.packets || !same(session.packets.bank, bank) || !same(session.packets.merchant, merchant) || !same(seal(ctx.bankKey, bank, merchant), sign)) return null;
  return session;
}

function resolve(ctx: ApiContext, b: Node): Answer {
  const session = sessionOf(ctx, b);
  if (session === null) return refusal('E219', 'PAKET IMZASI DOGRULANAMADI');
  const amount = session.amount.toString();
  if (!same(merchantMac(ctx.merchant, session.xid, amount, session.currency), str(b.mac))) return refusal('E216', 'Mac Doğrulama hatalı');
  const mdStatus = session.mdStatus ?? '0';
  return {
    approved: '1',
    oosResolveMerchantDataResponse: {
      xid: session.xid,
      amount,
      currency: session.currency,
      installment: session.installment,
      point: '0',
      pointAmount: '0',
      txStatus: mdStatus === '1' ? 'Y' : 'N',
      mdStatus,
      mdErrorMessage: mdStatus === '1' ? 'Authenticated' : 'Not authenticated',
      mac: resolutionMac(ctx.merchant, mdStatus, session.xid, amount, session.currency),
    },
  };
}

function charge(ctx: ApiContext, orderId: string, card: { number: string; expDate: string }, amount: bigint, currency: string, installment: string): Answer {
  if (ctx.books.orders.has(orderId)) return refusal('0127', 'ORDERID DAHA ONCE KULLANILMIS', '2');
  const outcome = outcomeOf(card.number, expiryOf(card.expDate), ctx.now);
  if (ctx.forceDecline) return ISSUER.do_not_honour;
  if (outcome.answer !== 'approved') return ISSUER[outcome.answer];
  const line = { state: 'Sale' as const, amount, hostlogkey: hostlogkey(), authCode: authCode(), tranDate: tranDate(ctx.now) };
  ctx.books.orders.set(orderId, { orderId, currency, installment: installment || '00', cardMasked: maskPan(card.number), lines: [line] });
  return { approved: '1', hostlogkey: line.hostlogkey, authCode: line.authCode, instInfo: { inst1: installment || '00', amnt1: amount.toString() } };
}

function tranData(ctx: ApiContext, b: Node): Answer {
  const session = sessionOf(ctx, b);
  if (session === null) return refusal('E219', 'PAKET IMZASI DOGRULANAMADI');
  if (!same(merchantMac(ctx.merchant, session.xid, session.amount.toString(), session.currency), str(b.mac))) return refusal('E216', 'Mac Doğrulama hatalı');
  if (!['1', '2', '3', '4'].includes(session.mdStatus ?? '')) return refusal('0225', '3D DOGRULAMA BASARISIZ');
  if (session.spent) return refusal('0127', 'ORDERID DAHA ONCE KULLANILMIS', '2');
  session.spent = true;
  return charge(ctx, `TDSC${session.xid}`, { number: session.cardNumber, expDate: session.expDate }, session.amount, session.currency, session.installment);
}

function sale(ctx: ApiContext, b: Node): Answer {
  const orderId = str(b.orderID);
  const amount = str(b.amount);
  if (!/^[A-Za-z0-9_]{1,24}$/.test(orderId)) return refusal('0001', 'GECERSIZ ORDERID');
  if (!/^[1-9]\d*$/.test(amount)) return refusal('0013', 'GECERSIZ TUTAR');
  return charge(ctx, pad24(orderId), { number: str(b.ccno), expDate: str(b.expDate) }, BigInt(amount), str(b.currencyCode), str(b.installment));
}

function orderOf(ctx: ApiContext, b: Node): Order | undefined {
  return ctx.books.orders.get(pad24(str(b.orderID)));
}

function refund(ctx: ApiContext, b: Node): Answer {
  const order = orderOf(ctx, b);
  const amount = str(b.amount);
  if (order === undefined) return NOT_FOUND;
  if (!/^[1-9]\d*$/.test(amount)) return refusal('0013', 'GECERSIZ TUTAR');
  const sold = order.lines.find((l) => l.state === 'Sale')!;
  const returned = order.lines.filter((l) => l.state === 'Return').reduce((sum, l) => sum + l.amount, 0n);
  if (order.lines.some((l) => l.state === 'Reverse') || returned + BigInt(amount) > sold.amount) return refusal('0131', 'IADE TUTARI SATIS TUTARINI ASIYOR');
  const line = { state: 'Return' as const, amount: BigInt(amount), hostlogkey: hostlogkey(), authCode: authCode(), tranDate: tranDate(ctx.now) };
  order.lines.push(line);
  return { approved: '1', hostlogkey: line.hostlogkey, authCode: line.authCode };
}

function reverse(ctx: ApiContext, b: Node): Answer {
  const order = orderOf(ctx, b);
  if (order === undefined) return NOT_FOUND;
  if (order.lines.length !== 1) return refusal('0132', 'IPTAL EDILEMEZ');
  const sold = order.lines[0]!;
  const line = { state: 'Reverse' as const, amount: sold.amount, hostlogkey: hostlogkey(), authCode: sold.authCode, tranDate: tranDate(ctx.now) };
  order.lines.push(line);
  return { approved: '1', hostlogkey: line.hostlogkey, authCode: line.authCode };
}

function agreement(ctx: ApiContext, b: Node): Answer {
  const order = orderOf(ctx, b);
  if (order === undefined) return NOT_FOUND;
  const transaction = order.lines.map((l) => ({ orderID: order.orderId, ccno: order.cardMasked, amount: statusAmount(l.amount), currencyCode: order.currency, authCode: l.authCode, tranDate: l.tranDate, state: l.state, txnStatus: '1', hostlogkey: l.hostlogkey }));
  return { approved: '1', transactions: { transaction } };
}
