// The 3-D Secure gate (POST /servlet/gt3dengine, GVP's gt3dengine form) and the ACS it leads to. The
// result is posted back to successurl or errorurl with GVP's fields, signed with `hash` over `hashparams`.
import { randomBytes } from 'node:crypto';
import { maskPan, messageOf, outcomeOf } from './cards.ts';
import { CURRENCIES, isMinorUnits, type GarantiCredentials } from './config.ts';
import { callbackHash, threeDHash } from './hash.ts';
import { acsPage, autoPostPage, errorPage } from './pages.ts';
import type { GarantiState, ThreeDSession } from './state.ts';
import { AUTHENTICATED } from './transactions.ts';
import { acsUrl, echoOf, isHttpUrl, openChallenge, type BankPage } from '../bank/acs.ts';

export interface GateContext {
  state: GarantiState;
  creds: GarantiCredentials;
  now: Date;
  baseUrl: string;
  forceDecline: boolean;
}

export type Page = BankPage;

/** Levels that charge at the gate (the "3D Pay" model); '3D' only authenticates and the merchant sells over XML. */
const PAYING_LEVELS = new Set(['3D_PAY', '3D_FULL', '3D_HALF']);
const LEVELS = new Set(['3D', ...PAYING_LEVELS]);
const CARD_FIELDS = new Set(['cardnumber', 'cardexpiredatemonth', 'cardexpiredateyear', 'cardcvv2']);
// GVP's own list, in its order (mewebstudio/pos tests/Unit/Crypt/GarantiPosCryptTest.php).
const HASH_PARAMS = 'clientid:oid:authcode:procreturncode:response:mdstatus:cavv:eci:md:rnd:';

/** The gate: checks the form and its secure3dhash, then shows the ACS (or answers at once for a card whose ACS does not challenge). */
export function openGate(form: URLSearchParams, ctx: GateContext): Page {
  const field = (name: string) => form.get(name) ?? '';
  const successUrl = field('successurl');
  const errorUrl = field('errorurl');
  if (!isHttpUrl(successUrl) || !isHttpUrl(errorUrl)) return { status: 400, html: errorPage('successurl ve errorurl http(s) adresleri olmalı') };
  const echo = echoOf(form, CARD_FIELDS);
  const problem = formProblem(field, ctx.creds);
  if (problem) return { status: 200, html: autoPostPage(errorUrl, gateRefusal(echo, problem, ctx.creds)) };

  const session = ctx.state.newSession({
    orderId: field('orderid'),
    amount: field('txnamount'),
    currency: field('txncurrencycode'),
    installments: field('txninstallmentcount'),
    securityLevel: field('secure3dsecuritylevel').toUpperCase(),
    cardNumber: field('cardnumber'),
    expiry: { month: field('cardexpiredatemonth'), year: field('cardexpiredateyear') },
    echo,
    mdStatus: outcomeOf(field('cardnumber'), null, ctx.now).mdStatus,
    forceDecline: ctx.forceDecline,
  });
  // A card whose ACS answers without a challenge (its mdstatus) goes straight back.
  if (session.mdStatus !== null) return { status: 200, html: finish(session, session.mdStatus, ctx) };
  return { status: 200, html: acsPage(acsUrl(ctx.baseUrl, session.token, 'complete'), { amount: session.amount, currency: session.currency, cardMasked: maskPan(session.cardNumber) }) };
}

/** The shopper's answer on the ACS page: null when the challenge is unknown or already answered. */
export function completeAcs(token: string, decision: string, ctx: GateContext): string | null {
  const session = openChallenge(ctx.state.sessions, token);
  if (!session) return null;
  return finish(session, decision === 'approve' ? '1' : '0', ctx);
}

/** Sets the authentication result, charges for a paying level, and answers the page posting the callback. */
function finish(session: ThreeDSession, mdStatus: string, ctx: GateContext): string {
  session.answered = true;
  session.mdStatus = mdStatus;
  const authenticated = AUTHENTICATED.has(mdStatus);
  if (authenticated) {
    session.cavv = randomBytes(20).toString('base64');
    session.eci = session.cardNumber.startsWith('4') ? '05' : '02';
  }
  const paying = PAYING_LEVELS.has(session.securityLevel);
  const charge = paying && authenticated ? chargeAtGate(session, ctx) : null;
  const ok = authenticated && (!charge || charge.code === '00');
  const fields: Record<string, string> = {
    ...session.echo,
    xid: session.xid,
    mdstatus: mdStatus,
    mderrormessage: authenticated ? 'Authenticated' : 'Not authenticated',
    txnstatus: authenticated ? 'Y' : 'N',
    eci: session.eci,
    cavv: session.cavv,
    md: session.md,
    terminalid: ctx.creds.terminalId,
    clientid: ctx.creds.terminalId,
    oid: session.orderId,
    orderid: session.orderId,
    authcode: charge?.authCode ?? '',
    response: charge ? (charge.code === '00' ? 'Approved' : 'Declined') : '',
    errmsg: !authenticated ? '3D doğrulama başarısız' : charge && charge.code !== '00' ? messageOf(charge.code) : '',
    hostmsg: '',
    procreturncode: charge?.code ?? '',
    transid: session.orderId,
    hostrefnum: charge?.retrefNum ?? '',
    rnd: randomBytes(15).toString('base64url'),
    MaskedPan: maskPan(session.cardNumber),
    hashparams: HASH_PARAMS,
  };
  const { hashparamsval, hash } = callbackHash(fields, ctx.creds.storeKey);
  return autoPostPage(ok ? (session.echo.successurl ?? '') : (session.echo.errorurl ?? ''), { ...fields, hashparamsval, hash });
}

/** The "3D Pay" charge: the sale is made at the gate, once per order (a paid order answers its sale again). */
function chargeAtGate(session: ThreeDSession, ctx: GateContext): { code: string; authCode: string; retrefNum: string } {
  const { state } = ctx;
  // The authentication is spent on this charge: no XML sale may use it again.
  session.used = true;
  const amount = Number(session.amount);
  const existing = state.orders.get(session.orderId);
  const paid = existing ? state.sale(existing) : undefined;
  if (paid) return paid.amount === amount ? paid : { code: '99', authCode: '', retrefNum: '' };
  const code = session.forceDecline ? '05' : outcomeOf(session.cardNumber, session.expiry, ctx.now).code;
  const txn = state.newTxn('sales', code, amount, ctx.now);
  const order = existing ?? { orderId: session.orderId, currency: session.currency, installments: session.installments, cardMasked: maskPan(session.cardNumber), txns: [] };
  order.txns.push(txn);
  state.orders.set(order.orderId, order);
  return txn;
}

/** What is wrong with the gate form, in GVP's words; null when it may go on. */
function formProblem(field: (name: string) => string, creds: GarantiCredentials): string | null {
  for (const name of ['mode', 'terminalid', 'terminalprovuserid', 'terminaluserid', 'terminalmerchantid', 'orderid', 'txntype', 'txnamount', 'txncurrencycode', 'secure3dsecuritylevel', 'secure3dhash', 'cardnumber', 'cardexpiredatemonth', 'cardexpiredateyear', 'cardcvv2']) {
    if (field(name) === '') return `Zorunlu alan eksik: ${name}`;
  }
  if (field('terminalid') !== creds.terminalId || field('terminalmerchantid') !== creds.merchantId) return 'Terminal bilgileri hatalı: terminalid/terminalmerchantid';
  if (field('terminalprovuserid') !== creds.provisionUser) return `terminalprovuserid ${creds.provisionUser} olmalı`;
  if (field('txntype') !== 'sales') return 'txntype sales olmalı';
  if (!/^[A-Za-z0-9_-]{1,36}$/.test(field('orderid'))) return 'orderid 1-36 harf, rakam, _ veya - olmalı';
  if (!isMinorUnits(field('txnamount'))) return 'txnamount kuruş cinsinden pozitif tamsayı olmalı';
  if (!CURRENCIES.has(field('txncurrencycode'))) return 'txncurrencycode geçersiz';
  if (!/^\d{0,2}$/.test(field('txninstallmentcount'))) return 'txninstallmentcount geçersiz';
  if (!LEVELS.has(field('secure3dsecuritylevel').toUpperCase())) return `secure3dsecuritylevel ${[...LEVELS].join(', ')} olmalı`;
  if (!/^\d{12,19}$/.test(field('cardnumber'))) return 'cardnumber geçersiz';
  const hashFields = {
    terminalid: field('terminalid'),
    orderid: field('orderid'),
    txnamount: field('txnamount'),
    txncurrencycode: field('txncurrencycode'),
    successurl: field('successurl'),
    errorurl: field('errorurl'),
    txntype: field('txntype'),
    txninstallmentcount: field('txninstallmentcount'),
  };
  if (field('secure3dhash').toUpperCase() !== threeDHash(hashFields, creds.storeKey, creds.provisionPassword)) return 'Güvenlik kodu (secure3dhash) hatalı';
  return null;
}

/** A refused gate form: posted to errorurl with mdstatus 7 (GVP's "system error") and the reason in errmsg, signed. */
function gateRefusal(echo: Record<string, string>, problem: string, creds: GarantiCredentials): Record<string, string> {
  const fields: Record<string, string> = {
    ...echo,
    mdstatus: '7',
    mderrormessage: problem,
    clientid: creds.terminalId,
    terminalid: creds.terminalId,
    oid: echo.orderid ?? '',
    authcode: '',
    procreturncode: '99',
    response: 'Error',
    errmsg: problem,
    cavv: '',
    eci: '',
    md: '',
    rnd: randomBytes(15).toString('base64url'),
    hashparams: HASH_PARAMS,
  };
  return { ...fields, ...callbackHash(fields, creds.storeKey) };
}
