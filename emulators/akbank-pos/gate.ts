// The 3-D Secure gate: POST /securepay takes the 3D and 3D Pay forms (with the card), POST
// /payhosting the 3D Host form (without: the bank's own page asks the shopper for the card, then
// goes on the same way). The ACS follows. The result goes back to okUrl or failUrl with Akbank's
// fields, signed over the names in `hashParams` (hash.ts). In the 3D Pay and 3D Host models the
// gate also charges the card; in the 3D model the merchant sells afterwards over the API with the
// secure data the callback hands out (api.ts).
import escapeHtml from 'escape-html';
import { acsPage, autoPostPage, errorPage } from '../bank/pages.ts';
import { issuerSaid, record } from './api.ts';
import { hostCodeOf, maskPan, outcomeOf } from './cards.ts';
import { CURRENCIES, istanbulTime, minorUnits, REQUEST_TIME, type AkbankTerminal } from './config.ts';
import { expectedFormHash, signCallback } from './hash.ts';
import type { AkbankState, ThreeDSession } from './state.ts';
import { acsUrl, isHttpUrl, openChallenge, type BankPage } from '../bank/acs.ts';

export const BANK = 'Akbank';

export interface GateContext {
  state: AkbankState;
  terminal: AkbankTerminal;
  now: Date;
  baseUrl: string;
  forceDecline: boolean;
}

export type Page = BankPage;

const MODELS_AT = { securepay: new Set(['3D', '3D_PAY']), payhosting: new Set(['3D_PAY_HOSTING']) } as const;
const THREE_DS_FAILED = { responseCode: 'VPS-1279', responseMessage: 'BKM 3DS Server Doğrulama Başarısız' };

/** The gate: checks the form and its hash, then shows the ACS (the card page first in the 3D Host model). */
export function openGate(form: URLSearchParams, at: keyof typeof MODELS_AT, ctx: GateContext): Page {
  const field = (name: string) => form.get(name) ?? '';
  const okUrl = field('okUrl');
  const failUrl = field('failUrl');
  if (!isHttpUrl(okUrl) || !isHttpUrl(failUrl)) return { status: 400, html: errorPage(BANK, 'okUrl ve failUrl http(s) adresleri olmalı') };
  const problem = formProblem(field, at, ctx);
  if (problem) return { status: 200, html: back(failUrl, refusal(field('orderId'), { responseCode: 'VPS-1902', responseMessage: `Geçersiz istek: ${problem}` }, ctx)) };
  const existing = ctx.state.orders.get(field('orderId'));
  if (existing && ctx.state.sale(existing)) return { status: 200, html: back(failUrl, refusal(field('orderId'), { responseCode: 'VPS-1013', responseMessage: `Sipariş Numarası : ${field('orderId')} tekil olmalıdır` }, ctx)) };
  ctx.state.randoms.add(field('randomNumber'));
  const session = ctx.state.newSession({
    orderId: field('orderId'),
    amount: minorUnits(field('amount')) ?? 0,
    currencyCode: Number(field('currencyCode')),
    installCount: Number(field('installCount')),
    paymentModel: field('paymentModel'),
    okUrl,
    failUrl,
    cardNumber: field('creditCard'),
    expiry: field('expiredDate'),
    forceDecline: ctx.forceDecline,
  });
  if (at === 'payhosting') return { status: 200, html: cardPage(acsUrl(ctx.baseUrl, session.token), field('amount')) };
  return { status: 200, html: challenge(session, ctx) };
}

/** The 3D Host card page's post (POST /_emulator/acs/<token>): the card, then the ACS. Null when the session is unknown. */
export function enterCard(token: string, form: URLSearchParams, ctx: GateContext): Page | null {
  const session = openChallenge(ctx.state.sessions, token);
  if (!session || session.paymentModel !== '3D_PAY_HOSTING' || session.cardNumber !== '') return null;
  const number = (form.get('creditCard') ?? '').replace(/\s/g, '');
  const expiry = form.get('expiredDate') ?? '';
  if (!/^\d{12,19}$/.test(number) || !/^(0[1-9]|1[0-2])\d{2}$/.test(expiry) || !/^\d{3,4}$/.test(form.get('cvv') ?? '')) {
    return { status: 200, html: cardPage(acsUrl(ctx.baseUrl, token), (session.amount / 100).toFixed(2), 'Kart bilgileri geçersiz') };
  }
  session.cardNumber = number;
  session.expiry = expiry;
  return { status: 200, html: challenge(session, ctx) };
}

/** The ACS: Approve/Decline, or its answer at once for a card whose ACS does not challenge. */
function challenge(session: ThreeDSession, ctx: GateContext): string {
  const acs = outcomeOf(session.cardNumber).acs;
  if (acs !== 'challenge') return finish(session, acs === 'attempt' ? 'attempt' : 'failed', ctx);
  return acsPage(BANK, acsUrl(ctx.baseUrl, session.token, 'complete'), { amount: String(session.amount), currency: String(session.currencyCode), cardMasked: maskPan(session.cardNumber) });
}

/** The shopper's answer on the ACS page: null when the challenge is unknown or already answered. */
export function completeAcs(token: string, decision: string, ctx: GateContext): string | null {
  const session = openChallenge(ctx.state.sessions, token);
  if (!session || session.cardNumber === '') return null;
  return finish(session, decision === 'approve' ? 'authenticated' : 'failed', ctx);
}

/** Answers the authentication: the 3D model hands out its secure data; the 3D Pay and Host models charge. */
function finish(session: ThreeDSession, result: 'authenticated' | 'attempt' | 'failed', ctx: GateContext): string {
  session.answered = true;
  if (result === 'failed') return back(session.failUrl, refusal(session.orderId, THREE_DS_FAILED, ctx));
  const secure = ctx.state.authenticate(session, result === 'attempt');
  const terminal = { merchantSafeId: ctx.terminal.merchantSafeId, terminalSafeId: ctx.terminal.terminalSafeId };
  if (session.paymentModel === '3D') {
    const fields = { txnCode: '3001', responseCode: 'VPS-0000', responseMessage: 'BAŞARILI', txnDateTime: istanbulTime(ctx.now), ...terminal, orderId: session.orderId, ...secure };
    return back(session.okUrl, signCallback(fields, ctx.terminal.secretKey));
  }
  session.used = true;
  const hostCode = session.forceDecline ? '05' : hostCodeOf(session.cardNumber, session.expiry, ctx.now);
  const answer = record(session.orderId, { currencyCode: session.currencyCode, installCount: session.installCount, cardMasked: maskPan(session.cardNumber) }, '1000', issuerSaid(hostCode), session.amount, ctx);
  const txn = answer.transaction as { authCode: string; rrn: string; batchNumber: number; stan: number };
  const fields = {
    txnCode: '1000',
    responseCode: String(answer.responseCode),
    responseMessage: String(answer.responseMessage),
    hostResponseCode: String(answer.hostResponseCode ?? ''),
    hostMessage: String(answer.hostMessage ?? ''),
    txnDateTime: istanbulTime(ctx.now),
    ...terminal,
    orderId: session.orderId,
    authCode: txn.authCode,
    rrn: txn.rrn,
    batchNumber: String(txn.batchNumber),
    stan: String(txn.stan),
  };
  return back(answer.responseCode === 'VPS-0000' ? session.okUrl : session.failUrl, signCallback(fields, ctx.terminal.secretKey));
}

/** A refusal before any charge: signed over its code, message and order id, as Akbank signs them. */
function refusal(orderId: string, said: { responseCode: string; responseMessage: string }, ctx: GateContext): Record<string, string> {
  const signed = signCallback({ responseCode: said.responseCode, responseMessage: said.responseMessage, orderId }, ctx.terminal.secretKey);
  return { txnCode: '', ...signed, hostResponseCode: '', hostMessage: '', merchantSafeId: '', terminalSafeId: '' };
}

const back = (url: string, fields: Record<string, string>): string => autoPostPage(BANK, 'akbank-3ds-result', url, fields);

/** What is wrong with the gate form, in Akbank's words; null when it may go on. */
function formProblem(field: (name: string) => string, at: keyof typeof MODELS_AT, ctx: GateContext): string | null {
  const required = ['paymentModel', 'txnCode', 'merchantSafeId', 'terminalSafeId', 'orderId', 'lang', 'amount', 'currencyCode', 'installCount', 'randomNumber', 'requestDateTime', 'hash'];
  if (at === 'securepay') required.push('creditCard', 'expiredDate', 'cvv');
  for (const name of required) if (field(name) === '') return `zorunlu alan eksik: ${name}`;
  if (!MODELS_AT[at].has(field('paymentModel'))) return `paymentModel ${[...MODELS_AT[at]].join(' veya ')} olmalı`;
  if (field('txnCode') !== '3000') return 'txnCode 3000 olmalı';
  if (field('merchantSafeId') !== ctx.terminal.merchantSafeId || field('terminalSafeId') !== ctx.terminal.terminalSafeId) return 'üye işyeri bilgileri hatalı';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(field('orderId'))) return 'orderId';
  if (!['TR', 'EN'].includes(field('lang'))) return 'lang';
  if (minorUnits(field('amount')) === null) return 'amount';
  if (!CURRENCIES.has(Number(field('currencyCode')))) return 'currencyCode';
  if (!/^([1-9]|1[0-2])$/.test(field('installCount'))) return 'installCount';
  if (!/^[0-9A-Fa-f]{128}$/.test(field('randomNumber')) || ctx.state.randoms.has(field('randomNumber'))) return 'randomNumber';
  if (!REQUEST_TIME.test(field('requestDateTime'))) return 'Geçerli talep tarihi giriniz.';
  if (at === 'securepay' && (!/^\d{12,19}$/.test(field('creditCard')) || !/^(0[1-9]|1[0-2])\d{2}$/.test(field('expiredDate')))) return 'kart bilgileri';
  if (field('hash') !== expectedFormHash(field, ctx.terminal.secretKey)) return 'hash hatalı';
  return null;
}

/** The bank's card page in the 3D Host model. */
function cardPage(action: string, amount: string, error = ''): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${BANK} emulator — ödeme</title></head>
<body>
  <h1>Kart ile ödeme (emulated ${BANK} payment page)</h1>
  <p>${escapeHtml(amount)}</p>
  ${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
  <form id="akbank-card" method="post" action="${escapeHtml(action)}">
    <label>Kart numarası <input name="creditCard" autocomplete="cc-number"></label>
    <label>Son kullanma (AAYY) <input name="expiredDate" autocomplete="cc-exp"></label>
    <label>CVV <input name="cvv" autocomplete="cc-csc"></label>
    <button type="submit" id="pay">Öde</button>
  </form>
</body></html>`;
}
