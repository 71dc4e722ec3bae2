// The 3-D Secure gate (POST /mpi/Default.aspx with SecureType 3DModel or 3DPay, POST /mpi/3DHost.aspx
// with 3DHost) and the pages it leads to: for 3D Host the card page first, then the ACS. The result
// is posted back to OkUrl or FailUrl with InterPOS's fields (those of mewebstudio/pos's callback
// vectors), signed with HASH over HASHPARAMS (hash.ts). 3DPay and 3DHost charge at the gate.
import { randomBytes } from 'node:crypto';
import { maskPan, messageOf, outcomeOf } from './cards.ts';
import { CURRENCIES, minorOf, trxDate, turkishAmount, type InterPosCredentials } from './config.ts';
import { gateHash, HASH_PARAMS, signCallback } from './hash.ts';
import { acsPage, autoPostPage, cardPage, errorPage } from './pages.ts';
import type { InterPosState, ThreeDSession, Txn } from './state.ts';
import { acsUrl, echoOf, isHttpUrl, openChallenge, type BankPage } from '../bank/acs.ts';

export interface GateContext {
  state: InterPosState;
  creds: InterPosCredentials;
  now: Date;
  baseUrl: string;
  forceDecline: boolean;
}

export type Page = BankPage;

const CARD_FIELDS = new Set(['Pan', 'Expiry', 'Cvv2', 'CardType']);
const AUTHENTICATED = new Set(['1', '2', '3', '4']);

/** The gate at `path`: checks the form and its Hash, then shows the card page (3D Host), the ACS, or answers at once for a card whose ACS does not challenge. */
export function openGate(form: URLSearchParams, host: boolean, ctx: GateContext): Page {
  const field = (name: string) => form.get(name) ?? '';
  const failUrl = field('FailUrl');
  if (!isHttpUrl(field('OkUrl')) || !isHttpUrl(failUrl)) return { status: 400, html: errorPage('OkUrl ve FailUrl http(s) adresleri olmalı') };
  const echo = echoOf(form, CARD_FIELDS);
  const problem = formProblem(field, host, ctx.creds);
  if (problem) return { status: 200, html: autoPostPage(failUrl, refusal(echo, problem, ctx)) };

  const session = ctx.state.newSession({
    orderId: field('OrderId'),
    purchAmount: field('PurchAmount'),
    amount: minorOf(field('PurchAmount'))!,
    currency: field('Currency'),
    installments: field('InstallmentCount'),
    secureType: field('SecureType') as ThreeDSession['secureType'],
    cardNumber: field('Pan'),
    expiry: field('Expiry'),
    echo,
    mdStatus: host ? null : outcomeOf(field('Pan'), null, ctx.now).mdStatus,
    forceDecline: ctx.forceDecline,
  });
  if (host) return { status: 200, html: cardPage(acsUrl(ctx.baseUrl, session.token), summary(session)) };
  return challenge(session, ctx);
}

/** The 3D Host card page posted: the card joins the session, then the ACS. Null when the session is unknown or has its card. */
export function takeCard(token: string, form: URLSearchParams, ctx: GateContext): Page | null {
  const session = ctx.state.sessions.get(token);
  if (!session || session.secureType !== '3DHost' || session.cardNumber !== '') return null;
  const pan = (form.get('Pan') ?? '').replace(/\s/g, '');
  if (!/^\d{12,19}$/.test(pan) || !/^\d{4}$/.test(form.get('Expiry') ?? '')) return { status: 400, html: errorPage('Kart numarası veya son kullanma tarihi geçersiz') };
  session.cardNumber = pan;
  session.expiry = form.get('Expiry') ?? '';
  session.mdStatus = outcomeOf(pan, null, ctx.now).mdStatus;
  return challenge(session, ctx);
}

/** The shopper's answer on the ACS page: null when the challenge is unknown, has no card yet or is answered. */
export function completeAcs(token: string, decision: string, ctx: GateContext): string | null {
  const session = openChallenge(ctx.state.sessions, token);
  if (!session || session.cardNumber === '') return null;
  return finish(session, decision === 'approve' ? '1' : '0', ctx);
}

function challenge(session: ThreeDSession, ctx: GateContext): Page {
  // A card whose ACS answers without a challenge (its mdStatus) goes straight back.
  if (session.mdStatus !== null) return { status: 200, html: finish(session, session.mdStatus, ctx) };
  return { status: 200, html: acsPage(acsUrl(ctx.baseUrl, session.token, 'complete'), { ...summary(session), cardMasked: maskPan(session.cardNumber) }) };
}

const summary = (session: ThreeDSession) => ({ amount: session.purchAmount, currency: session.currency });

/** Sets the authentication result, charges in 3DPay and 3DHost, and answers the page posting the callback. */
function finish(session: ThreeDSession, mdStatus: string, ctx: GateContext): string {
  session.answered = true;
  session.mdStatus = mdStatus;
  const authenticated = AUTHENTICATED.has(mdStatus);
  if (authenticated) {
    session.eci = session.cardNumber.startsWith('4') ? '05' : '02';
    session.cavv = randomBytes(20).toString('base64');
  }
  const charge = session.secureType !== '3DModel' && authenticated ? chargeAtGate(session, ctx) : null;
  const ok = authenticated && (!charge || charge.code === '00');
  const error = !authenticated ? '3D doğrulama başarısız' : charge && charge.code !== '00' ? messageOf(charge.code) : '';
  const fields: Record<string, string> = {
    Version: '',
    MerchantID: '',
    ShopCode: ctx.creds.shopCode,
    TxnStat: mdStatus === '1' ? 'Y' : authenticated ? 'A' : 'N',
    MD: authenticated ? session.md : '',
    RetCode: '',
    RetDet: '',
    VenderCode: '',
    Eci: session.eci,
    PayerAuthenticationCode: session.cavv,
    PayerTxnId: authenticated ? session.payerTxnId : '',
    CavvAlg: '',
    PAResVerified: authenticated ? 'True' : 'False',
    PAResSyntaxOK: authenticated ? 'True' : 'False',
    Expiry: '****',
    Pan: maskPan(session.cardNumber),
    OrderId: session.orderId,
    PurchAmount: turkishAmount(session.amount),
    Exponent: '',
    Description: '',
    Description2: '',
    Currency: session.currency,
    OkUrl: session.echo.OkUrl ?? '',
    FailUrl: session.echo.FailUrl ?? '',
    '3DStatus': mdStatus,
    AuthCode: charge?.authCode ?? '',
    HostRefNum: charge?.hostRefNum ?? '',
    TransId: charge?.transId ?? '',
    TRXDATE: charge?.date ?? '',
    CardHolderName: '',
    mdStatus,
    ProcReturnCode: charge?.code ?? '',
    TxnResult: charge ? (charge.code === '00' ? 'Success' : 'Failed') : '',
    ErrorMessage: error,
    ErrorCode: '',
    Response: '',
    HASHPARAMS: HASH_PARAMS,
  };
  return autoPostPage(ok ? (session.echo.OkUrl ?? '') : (session.echo.FailUrl ?? ''), { ...fields, ...signCallback(fields, ctx.creds.storeKey) });
}

/** The 3DPay / 3DHost charge: the sale is made at the gate, once per order (a paid order answers its sale again). */
function chargeAtGate(session: ThreeDSession, ctx: GateContext): Pick<Txn, 'code' | 'authCode' | 'hostRefNum' | 'transId' | 'date'> {
  const { state } = ctx;
  // The authentication is spent on this charge: no API sale may use it again.
  session.used = true;
  const existing = state.orders.get(session.orderId);
  const paid = existing ? state.sale(existing) : undefined;
  if (paid) return paid.amount === session.amount ? paid : { code: '99', authCode: '', hostRefNum: '', transId: '', date: '' };
  const code = session.forceDecline ? '05' : outcomeOf(session.cardNumber, session.expiry, ctx.now).code;
  const txn = state.newTxn('Auth', code, session.amount, trxDate(ctx.now));
  const order = existing ?? { orderId: session.orderId, currency: session.currency, installments: session.installments, cardMasked: maskPan(session.cardNumber), txns: [], voidDate: '' };
  order.txns.push(txn);
  state.orders.set(order.orderId, order);
  return txn;
}

/** What is wrong with the gate form, in InterPOS's words; null when it may go on. */
function formProblem(field: (name: string) => string, host: boolean, creds: InterPosCredentials): string | null {
  const required = ['ShopCode', 'TxnType', 'SecureType', 'PurchAmount', 'OrderId', 'Rnd', 'Currency', 'Hash', ...(host ? [] : ['Pan', 'Expiry', 'Cvv2'])];
  for (const name of required) if (field(name) === '') return `Zorunlu alan eksik: ${name}`;
  if (field('ShopCode') !== creds.shopCode) return 'ShopCode hatalı';
  if (field('TxnType') !== 'Auth') return 'TxnType Auth olmalı';
  const types = host ? ['3DHost'] : ['3DModel', '3DPay'];
  if (!types.includes(field('SecureType'))) return `SecureType ${types.join(' veya ')} olmalı`;
  if (!/^[A-Za-z0-9]{1,64}$/.test(field('OrderId'))) return 'OrderId 1-64 harf veya rakam olmalı';
  if (minorOf(field('PurchAmount')) === null) return 'PurchAmount pozitif, en fazla iki ondalıklı olmalı (100.25)';
  if (!CURRENCIES.has(field('Currency'))) return 'Currency geçersiz';
  if (!/^(|[2-9]|1[0-2])$/.test(field('InstallmentCount'))) return 'InstallmentCount geçersiz';
  if (!host && !/^\d{12,19}$/.test(field('Pan'))) return 'Pan geçersiz';
  if (field('Hash') !== gateHash(field, creds.storeKey)) return 'Hash hatalı';
  return null;
}

/** A refused gate form: posted to FailUrl with mdStatus 7 (system error) and the reason in ErrorMessage, signed. */
function refusal(echo: Record<string, string>, problem: string, ctx: GateContext): Record<string, string> {
  const fields: Record<string, string> = {
    ...echo,
    Version: '',
    ShopCode: ctx.creds.shopCode,
    MD: '',
    '3DStatus': '7',
    mdStatus: '7',
    TxnStat: 'E',
    ProcReturnCode: '99',
    Response: '',
    ErrorMessage: problem,
    ErrorCode: '',
    Exponent: '',
    HASHPARAMS: HASH_PARAMS,
  };
  delete fields.Hash;
  return { ...fields, ...signCallback(fields, ctx.creds.storeKey) };
}
