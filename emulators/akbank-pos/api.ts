// Akbank's JSON API (POST <api>/transaction/process): a request is one JSON object signed by its
// `auth-hash` header; the answer is one JSON object whose responseCode is VPS-0000 when approved.
// Sales (1000, with the card or with the 3D model's secure data), refunds (1002, partial or
// full), cancels (1003) and the order history (1010). Codes and messages are the ones
// mewebstudio/pos's Akbank tests show; where they show none (a bad signature, a malformed
// request, a refund above what is left) the emulator answers with its own, listed in
// emulators/README.md.
import { hostCodeOf, hostMessageOf, maskPan } from './cards.ts';
import { CURRENCIES, istanbulTime, minorUnits, REQUEST_TIME, type AkbankTerminal } from './config.ts';
import { bodySigned } from './hash.ts';
import { APPROVED, type AkbankState, type Order } from './state.ts';

export interface ApiContext {
  state: AkbankState;
  terminal: AkbankTerminal;
  now: Date;
  forceDecline: boolean;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const obj = (v: unknown): Json => (isObject(v) ? v : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** Emulator codes where mewebstudio/pos shows none of Akbank's. */
export const EMULATOR_CODES = {
  badSignature: { code: 'VPS-1901', message: 'auth-hash doğrulanamadı' },
  badRequest: { code: 'VPS-1902', message: 'Geçersiz istek' },
  overRefund: { code: 'VPS-1903', message: 'İade tutarı kalan tutarı aşıyor' },
} as const;

/** Whether the request moves money on a card (only those take a `decline` rule). */
export function isCharge(raw: string): boolean {
  try {
    return str(obj(JSON.parse(raw)).txnCode) === '1000';
  } catch {
    return false;
  }
}

/** The answer body for one API request. */
export function handleApi(raw: string, authHash: string, ctx: ApiContext): { status: number; body: string } {
  let request: Json;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!isObject(parsed)) throw new Error('not an object');
    request = parsed;
  } catch {
    return { status: 400, body: JSON.stringify({ code: 400, message: 'JSON okunamadı' }) };
  }
  const txnCode = str(request.txnCode);
  const orderId = str(obj(request.order).orderId);
  const base = { txnCode, terminal: obj(request.terminal), txnDateTime: istanbulTime(ctx.now), order: { orderId } };
  const refuse = (code: string, message: string, extra: Json = {}) => ({ status: 200, body: JSON.stringify({ ...base, ...extra, responseCode: code, responseMessage: message }) });

  if (!bodySigned(raw, authHash, ctx.terminal.secretKey)) return refuse(EMULATOR_CODES.badSignature.code, EMULATOR_CODES.badSignature.message);
  const problem = headProblem(request, ctx);
  if (problem !== null) return problem.code === 'VPS-1073' ? refuse(problem.code, problem.message) : refuse(EMULATOR_CODES.badRequest.code, `${EMULATOR_CODES.badRequest.message}: ${problem.message}`);
  ctx.state.randoms.add(str(request.randomNumber));

  const answer = (body: Json) => ({ status: 200, body: JSON.stringify({ ...base, ...body }) });
  switch (txnCode) {
    case '1000':
      return answer(sale(request, orderId, ctx));
    case '1002':
      return answer(refund(request, orderId, ctx));
    case '1003':
      return answer(cancel(orderId, ctx));
    case '1010':
      return answer(orderHistory(orderId, ctx));
    default:
      return refuse(EMULATOR_CODES.badRequest.code, `${EMULATOR_CODES.badRequest.message}: txnCode ${txnCode}`);
  }
}

/** What is wrong with the request's head (terminal, version, time, random); null when it may go on. */
function headProblem(request: Json, ctx: ApiContext): { code: string; message: string } | null {
  const terminal = obj(request.terminal);
  if (str(terminal.merchantSafeId) !== ctx.terminal.merchantSafeId || str(terminal.terminalSafeId) !== ctx.terminal.terminalSafeId) return { code: '', message: 'terminal' };
  if (str(request.version) !== '1.00') return { code: '', message: 'version' };
  if (!REQUEST_TIME.test(str(request.requestDateTime))) return { code: 'VPS-1073', message: 'Geçerli talep tarihi giriniz.' };
  const random = str(request.randomNumber);
  if (!/^[0-9A-Fa-f]{128}$/.test(random) || ctx.state.randoms.has(random)) return { code: '', message: 'randomNumber' };
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(str(obj(request.order).orderId))) return { code: '', message: 'orderId' };
  return null;
}

const approvedSaid = (hostCode: string) => ({ responseCode: APPROVED, responseMessage: 'BAŞARILI', hostResponseCode: hostCode, hostMessage: hostMessageOf(hostCode) });
export const issuerSaid = (hostCode: string) =>
  hostCode === '00' ? approvedSaid(hostCode) : { responseCode: 'VPS-1005', responseMessage: 'Provizyon Hatası', hostResponseCode: hostCode, hostMessage: hostMessageOf(hostCode) };

/** A sale with the card, or the 3D model's sale with the authentication's secure data. */
function sale(request: Json, orderId: string, ctx: ApiContext): Json {
  const txn = obj(request.transaction);
  const amount = minorUnits(str(txn.amount));
  const currencyCode = Number(str(txn.currencyCode));
  const installCount = Number(str(txn.installCount));
  if (amount === null || !CURRENCIES.has(currencyCode) || !Number.isInteger(installCount) || installCount < 1 || installCount > 12) return bad('transaction');
  const existing = ctx.state.orders.get(orderId);
  if (existing && ctx.state.sale(existing)) return said({ responseCode: 'VPS-1013', responseMessage: `Sipariş Numarası : ${orderId} tekil olmalıdır` });

  let cardNumber: string;
  let expiry: string;
  const secure = request.secureTransaction;
  if (isObject(secure)) {
    const session = [...ctx.state.sessions.values()].find((s) => s.orderId === orderId && s.secure !== null && s.secure.secureMd === str(secure.secureMd));
    if (!session?.secure || session.used || session.secure.secureId !== str(secure.secureId) || session.secure.secureData !== str(secure.secureData) || session.secure.secureEcomInd !== str(secure.secureEcomInd)) {
      return said({ responseCode: 'VPS-1279', responseMessage: 'BKM 3DS Server Doğrulama Başarısız' });
    }
    if (session.amount !== amount || session.currencyCode !== currencyCode || session.installCount !== installCount) return bad('transaction does not match the 3-D authentication');
    session.used = true;
    ({ cardNumber, expiry } = session);
  } else {
    const card = obj(request.card);
    cardNumber = str(card.cardNumber);
    expiry = str(card.expireDate);
    if (!/^\d{12,19}$/.test(cardNumber) || !/^(0[1-9]|1[0-2])\d{2}$/.test(expiry) || !/^\d{3,4}$/.test(str(card.cvv2))) return bad('card');
  }
  const hostCode = ctx.forceDecline ? '05' : hostCodeOf(cardNumber, expiry, ctx.now);
  return record(orderId, { currencyCode, installCount, cardMasked: maskPan(cardNumber) }, '1000', issuerSaid(hostCode), amount, ctx);
}

function refund(request: Json, orderId: string, ctx: ApiContext): Json {
  const txn = obj(request.transaction);
  const amount = minorUnits(str(txn.amount));
  if (amount === null) return bad('transaction.amount');
  const order = ctx.state.orders.get(orderId);
  const sold = order ? ctx.state.sale(order) : undefined;
  if (!order || (!sold && !order.txns.some((t) => t.txnCode === '1000' && t.responseCode === APPROVED))) return notFound(orderId);
  if (!sold) return recordOn(order, '1002', { responseCode: 'VPS-1008', responseMessage: 'Daha önce iptal edilmiş işlem' }, amount, ctx);
  if (Number(str(txn.currencyCode)) !== order.currencyCode) return bad('transaction.currencyCode');
  if (ctx.state.refunded(order) + amount > sold.amount) return recordOn(order, '1002', { responseCode: EMULATOR_CODES.overRefund.code, responseMessage: EMULATOR_CODES.overRefund.message }, amount, ctx);
  return recordOn(order, '1002', approvedSaid('00'), amount, ctx);
}

/** A cancel voids the order's standing sale; one with refunds standing is refused (refund the rest instead). */
function cancel(orderId: string, ctx: ApiContext): Json {
  const order = ctx.state.orders.get(orderId);
  const sold = order ? ctx.state.sale(order) : undefined;
  if (!order || !order.txns.some((t) => t.txnCode === '1000' && t.responseCode === APPROVED)) return notFound(orderId);
  if (!sold || ctx.state.refunded(order) > 0) return said({ responseCode: 'VPS-1008', responseMessage: 'Daha önce iptal edilmiş işlem' });
  sold.txnStatus = 'V';
  const txn = ctx.state.newTxn('1003', approvedSaid('00'), sold.amount, ctx.now);
  order.txns.push(txn);
  return { ...said(txn), order: { orderId } };
}

function orderHistory(orderId: string, ctx: ApiContext): Json {
  const order = ctx.state.orders.get(orderId);
  if (!order) return said({ responseCode: 'VPS-1123', responseMessage: `İşlem bulunamadı. Sipariş Numarası : ${orderId}` });
  return { txnDetailList: ctx.state.history(order), responseCode: APPROVED, responseMessage: 'BAŞARILI' };
}

const said = (s: { responseCode: string; responseMessage: string; hostResponseCode?: string; hostMessage?: string }): Json => ({
  responseCode: s.responseCode,
  responseMessage: s.responseMessage,
  ...(s.hostResponseCode ? { hostResponseCode: s.hostResponseCode, hostMessage: s.hostMessage ?? '' } : {}),
});

const bad = (what: string): Json => said({ responseCode: EMULATOR_CODES.badRequest.code, responseMessage: `${EMULATOR_CODES.badRequest.message}: ${what}` });

const notFound = (orderId: string): Json => said({ responseCode: 'VPS-1007', responseMessage: `Orjinal İşlem bulunamadı. Sipariş Numarası : ${orderId}` });

/** Records a transaction on the order (made on first sale) and answers it as Akbank does. */
export function record(orderId: string, facts: Omit<Order, 'orderId' | 'txns'>, txnCode: string, s: Parameters<AkbankState['newTxn']>[1], amount: number, ctx: ApiContext): Json {
  const order = ctx.state.orders.get(orderId) ?? { orderId, ...facts, txns: [] };
  ctx.state.orders.set(orderId, order);
  return recordOn(order, txnCode, s, amount, ctx);
}

function recordOn(order: Order, txnCode: string, s: Parameters<AkbankState['newTxn']>[1], amount: number, ctx: ApiContext): Json {
  const txn = ctx.state.newTxn(txnCode, s, amount, ctx.now);
  order.txns.push(txn);
  return { ...said(txn), transaction: { authCode: txn.authCode, rrn: txn.rrn, batchNumber: txn.batchNumber, stan: txn.stan }, order: { orderId: order.orderId } };
}
