// The 3-D Secure gate (POST /Gateway/Default.aspx, PayFor's 3DModel and 3DPay forms) and the ACS it
// leads to. The result goes back to OkUrl or FailUrl with PayFor's fields, signed with
// `ResponseHash` (hash.ts). In the 3DPay model the gate also charges the card; in the 3DModel
// model the merchant sells afterwards over XML with the RequestGuid (xmlapi.ts).
import { randomBytes, randomInt } from 'node:crypto';
import { maskPan, messageOf, outcomeOf } from './cards.ts';
import { CURRENCIES, MBR_ID, minorUnits, type PayforTerminal } from './config.ts';
import { expectedFormHash, signCallback } from './hash.ts';
import { acsPage, autoPostPage, errorPage } from './pages.ts';
import type { PayforState, ThreeDSession } from './state.ts';
import { acsUrl, echoOf, isHttpUrl, openChallenge, type BankPage } from '../bank/acs.ts';

export interface GateContext {
  state: PayforState;
  terminal: PayforTerminal;
  now: Date;
  baseUrl: string;
  forceDecline: boolean;
  hashAlgorithm: 'sha1' | 'sha256';
}

export type Page = BankPage;

const NOT_ECHOED = new Set(['Pan', 'Expiry', 'Cvv2', 'CardHolderName', 'Hash']);
const SECURE_TYPES = new Set(['3DModel', '3DPay']);
/** 3DStatus values after which the bank goes on: 1 authenticated, 2-4 "half secure". */
export const GOES_ON = new Set(['1', '2', '3', '4']);
const ORDER_USED = { code: '101310', message: 'Verilen sipariş no önceden kullanılmıştır.' };

/** The gate: checks the form and its Hash, then shows the ACS (or answers at once for a card whose ACS does not challenge). */
export function openGate(form: URLSearchParams, ctx: GateContext): Page {
  const field = (name: string) => form.get(name) ?? '';
  const okUrl = field('OkUrl');
  const failUrl = field('FailUrl');
  if (!isHttpUrl(okUrl) || !isHttpUrl(failUrl)) return { status: 400, html: errorPage('OkUrl ve FailUrl http(s) adresleri olmalı') };
  const echo = echoOf(form, NOT_ECHOED);
  const problem = formProblem(field, ctx.terminal);
  if (problem) return { status: 200, html: autoPostPage(failUrl, refusal(echo, { code: '96', message: problem }, ctx)) };
  const existing = ctx.state.orders.get(field('OrderId'));
  if (existing && ctx.state.sale(existing)) return { status: 200, html: autoPostPage(failUrl, refusal(echo, ORDER_USED, ctx)) };

  const session = ctx.state.newSession({
    orderId: field('OrderId'),
    amount: minorUnits(field('PurchAmount')) ?? 0,
    currency: field('Currency'),
    installments: field('InstallmentCount'),
    secureType: field('SecureType'),
    cardNumber: field('Pan'),
    expiry: field('Expiry'),
    echo,
    threeDStatus: outcomeOf(field('Pan'), null, ctx.now).threeDStatus,
    forceDecline: ctx.forceDecline,
  });
  // A card whose ACS answers without a challenge (its 3DStatus) goes straight back.
  if (session.threeDStatus !== null) return { status: 200, html: finish(session, session.threeDStatus, ctx) };
  return { status: 200, html: acsPage(acsUrl(ctx.baseUrl, session.token, 'complete'), { amount: field('PurchAmount'), currency: session.currency, cardMasked: maskPan(session.cardNumber) }) };
}

/** The shopper's answer on the ACS page: null when the challenge is unknown or already answered. */
export function completeAcs(token: string, decision: string, ctx: GateContext): string | null {
  const session = openChallenge(ctx.state.sessions, token);
  if (!session) return null;
  return finish(session, decision === 'approve' ? '1' : '-1', ctx);
}

/** Sets the authentication's result, charges in the 3DPay model, and answers the page posting the callback. */
function finish(session: ThreeDSession, threeDStatus: string, ctx: GateContext): string {
  session.answered = true;
  session.threeDStatus = threeDStatus;
  const goesOn = GOES_ON.has(threeDStatus);
  const paying = session.secureType === '3DPay';
  const charge = paying && goesOn ? chargeAtGate(session, ctx) : null;
  let outcome: { code: string; message: string; result: string };
  if (!goesOn) outcome = paying ? { code: 'MR15', message: '3D Secure Authorize Error', result: 'Failed' } : { code: 'V034', message: '3D Kullanıcı Doğrulama Adımı Başarısız', result: 'Failed' };
  else if (charge) outcome = { code: charge.code, message: charge.errMsg, result: charge.code === '00' ? 'Success' : 'Failed' };
  else outcome = { code: 'V033', message: '3D Kullanıcı Doğrulama Adımı Başarılı', result: 'Failed' };
  const fields: Record<string, string> = {
    ...session.echo,
    RequestGuid: session.requestGuid,
    TransactionDate: payforDate(ctx.now),
    MerchantID: ctx.terminal.merchantId,
    Exponent: '2',
    PayerTxnId: goesOn ? randomBytes(20).toString('base64') : '',
    PayerAuthenticationCode: goesOn ? randomBytes(20).toString('base64') : '',
    Eci: goesOn ? (session.cardNumber.startsWith('4') ? '05' : '02') : '',
    MD: '',
    CardMask: maskPan(session.cardNumber),
    '3DStatus': threeDStatus,
    TxnStatus: goesOn ? 'Y' : 'N',
    ErrMsg: outcome.message,
    TxnResult: outcome.result,
    AuthCode: charge?.authCode ?? '',
    HostRefNum: charge?.hostRefNum ?? '',
    ProcReturnCode: outcome.code,
    BatchNo: '4320',
  };
  const ok = paying ? charge?.code === '00' : goesOn;
  return autoPostPage(ok ? (session.echo.OkUrl ?? '') : (session.echo.FailUrl ?? ''), signed(fields, ctx));
}

/** The "3D Pay" charge: the sale is made at the gate, and the authentication is spent on it. */
function chargeAtGate(session: ThreeDSession, ctx: GateContext) {
  session.used = true;
  const outcome = outcomeOf(session.cardNumber, session.expiry, ctx.now);
  const code = session.forceDecline ? '05' : outcome.code;
  const txn = ctx.state.newTxn('Auth', code, messageOf(code), session.amount, ctx.now);
  const order = ctx.state.orders.get(session.orderId) ?? {
    orderId: session.orderId,
    currency: session.currency,
    installments: session.installments,
    cardMasked: maskPan(session.cardNumber),
    secureType: session.secureType,
    openBatch: outcome.openBatch === true,
    txns: [],
  };
  order.txns.push(txn);
  ctx.state.orders.set(order.orderId, order);
  return txn;
}

/** Adds PayFor's random and signature (and, for SHA-1, the HashType it names). */
function signed(fields: Record<string, string>, ctx: GateContext): Record<string, string> {
  const withRnd = { ...fields, ResponseRnd: `PF${randomInt(1e9, 1e10 - 1)}${randomInt(1e9, 1e10 - 1)}` };
  return { ...withRnd, ResponseHash: signCallback(withRnd, ctx.terminal, ctx.hashAlgorithm), ...(ctx.hashAlgorithm === 'sha1' ? { HashType: 'Sha1' } : {}) };
}

/** A refused form, posted to FailUrl with 3DStatus -1 and the reason in ErrMsg, signed as the bank signs its refusals. */
function refusal(echo: Record<string, string>, problem: { code: string; message: string }, ctx: GateContext): Record<string, string> {
  const fields = { ...echo, RequestGuid: '0', MerchantID: ctx.terminal.merchantId, '3DStatus': '-1', ErrMsg: problem.message, TxnResult: '', AuthCode: '', HostRefNum: '', ProcReturnCode: problem.code };
  return signed(fields, ctx);
}

/** What is wrong with the gate form, in PayFor's words; null when it may go on. */
function formProblem(field: (name: string) => string, terminal: PayforTerminal): string | null {
  for (const name of ['MbrId', 'MerchantID', 'UserCode', 'OrderId', 'SecureType', 'TxnType', 'PurchAmount', 'Currency', 'InstallmentCount', 'Rnd', 'Hash', 'Pan', 'Expiry']) {
    if (field(name) === '') return `Zorunlu alan eksik: ${name}`;
  }
  if (field('MbrId') !== MBR_ID) return `MbrId ${MBR_ID} olmalı`;
  if (field('MerchantID') !== terminal.merchantId || field('UserCode') !== terminal.userCode) return 'Üye işyeri bilgileri hatalı: MerchantID/UserCode';
  if (!SECURE_TYPES.has(field('SecureType'))) return `SecureType ${[...SECURE_TYPES].join(' veya ')} olmalı`;
  if (field('TxnType') !== 'Auth') return 'TxnType Auth olmalı';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(field('OrderId'))) return 'OrderId 1-64 harf, rakam, _ veya - olmalı';
  if (minorUnits(field('PurchAmount')) === null) return 'PurchAmount geçersiz';
  if (!CURRENCIES.has(field('Currency'))) return 'Currency geçersiz';
  if (!/^\d{1,2}$/.test(field('InstallmentCount'))) return 'InstallmentCount geçersiz';
  if (!/^\d{12,19}$/.test(field('Pan'))) return 'Pan geçersiz';
  if (!/^(0[1-9]|1[0-2])\d{2}$/.test(field('Expiry'))) return 'Expiry AAYY olmalı';
  if (field('Hash') !== expectedFormHash(field, terminal.storeKey)) return 'Hash hatalı';
  return null;
}

/** PayFor's "31.10.2022 22:34:18". */
function payforDate(now: Date): string {
  const iso = now.toISOString();
  return `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)} ${iso.slice(11, 19)}`;
}
