// Akbank's requests, field for field as mewebstudio/pos src/DataMapper/RequestDataMapper/
// AkbankPosRequestDataMapper.php builds them (its vectors: test/akbank-pos/vectors.test.ts).
// Every API request names the terminal (and the sub-merchant, when there is one), the API
// version, the transaction code, the request time (Istanbul's wall clock, "2024-04-14T16:45:30.000")
// and a fresh 128-hex-digit random the bank refuses to see twice. Amounts travel as decimals with
// two places ("1.10"), currencies as ISO 4217 numbers, one instalment as 1, the expiry as MMYY.
import { randomBytes } from 'node:crypto';
import type { CardData, Currency } from '../types.ts';
import { formHash } from './hash.ts';
import type { AkbankRequest } from './json.ts';
import type { AkbankPosCredentials } from './settings.ts';

export const API_VERSION = '1.00';

/** Transaction codes (txnCode) this connector sends. */
export const TXN = { sale: '1000', refund: '1002', cancel: '1003', orderHistory: '1010', threeDSale: '3000' } as const;

/** The 3-D models' paymentModel in the form. */
export const PAYMENT_MODEL = { '3d': '3D', '3d_pay': '3D_PAY', '3d_host': '3D_PAY_HOSTING' } as const;
export type ThreeDModel = keyof typeof PAYMENT_MODEL;

/** The gate form's card fields: the shopper's browser fills them, the gateway never logs them. */
export const AKBANK_CARD_FIELDS = ['creditCard', 'expiredDate', 'cvv'] as const;

/** Akbank's currencies (mewebstudio: TRY, USD, EUR, JPY, RUB); of the gateway's, GBP is not one. */
export const AKBANK_CURRENCY: Readonly<Partial<Record<Currency, number>>> = { TRY: 949, USD: 840, EUR: 978 };

export interface RequestContext {
  credentials: AkbankPosCredentials;
  lang: 'tr' | 'en';
  /** The clock the request time is read from. */
  now: () => Date;
  /** A fresh random per request; 128 hex digits by default. */
  random?: () => string;
}

/** Minor units as Akbank's decimal: 110 -> "1.10". Throws RangeError for zero or less. */
export function akbankAmount(minor: bigint): string {
  if (minor <= 0n) throw new RangeError('Akbank takes only a positive amount');
  return `${minor / 100n}.${(minor % 100n).toString().padStart(2, '0')}`;
}

/** Akbank's decimal (or JSON number) back to minor units; null when it is not one. */
export function minorOf(decimal: string): bigint | null {
  const match = /^(\d{1,15})(?:\.(\d{1,2}))?$/.exec(decimal);
  if (!match) return null;
  return BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
}

/** The currency's ISO number; throws RangeError for one Akbank does not take. */
export function currencyCode(currency: Currency): number {
  const code = AKBANK_CURRENCY[currency];
  if (code === undefined) throw new RangeError(`Akbank does not take ${currency}`);
  return code;
}

/** One payment is 1 (mewebstudio maps 0 and 1 to 1); 2..n are themselves. */
export const installCount = (n: number): number => Math.max(n, 1);

/** Istanbul's wall clock (UTC+3 all year since 2016), as Akbank wants it. */
export function requestDateTime(now: Date): string {
  return `${new Date(now.getTime() + 3 * 3_600_000).toISOString().slice(0, 19)}.000`;
}

const random = (ctx: RequestContext): string => (ctx.random ?? (() => randomBytes(64).toString('hex').toUpperCase()))();

const expiry = (card: CardData): string => `${card.expiryMonth.padStart(2, '0')}${card.expiryYear.slice(-2)}`;

/** What every API request starts with: the terminal, the version, the code, the time and the random. */
function head(txnCode: string, ctx: RequestContext): AkbankRequest {
  const { merchant_safe_id, terminal_safe_id, sub_merchant_id } = ctx.credentials;
  return {
    terminal: { merchantSafeId: merchant_safe_id, terminalSafeId: terminal_safe_id },
    ...(sub_merchant_id !== undefined ? { subMerchant: { subMerchantId: sub_merchant_id } } : {}),
    version: API_VERSION,
    txnCode,
    requestDateTime: requestDateTime(ctx.now()),
    randomNumber: random(ctx),
  };
}

export interface PaymentFields {
  orderId: string;
  amount: bigint;
  currency: Currency;
  installmentNumber: number;
  card: CardData;
  /** The shopper's address, as the bank wants it; the gateway's own when unknown. */
  ip?: string;
}

/** A sale without 3-D Secure. */
export function saleRequest(p: PaymentFields, ctx: RequestContext): AkbankRequest {
  return {
    ...head(TXN.sale, ctx),
    card: { cardNumber: p.card.number, cvv2: p.card.securityCode ?? '', expireDate: expiry(p.card) },
    transaction: { amount: akbankAmount(p.amount), currencyCode: currencyCode(p.currency), motoInd: 0, installCount: installCount(p.installmentNumber) },
    customer: { ipAddress: p.ip ?? '127.0.0.1' },
    order: { orderId: p.orderId },
  };
}

/** What the 3D model's callback gives for the sale that follows it. */
export interface SecureData {
  secureId: string;
  secureEcomInd: string;
  secureData: string;
  secureMd: string;
}

/** The 3D model's sale: the authentication's secure data stands for the card. */
export function threeDPaymentRequest(p: Omit<PaymentFields, 'card'> & { secure: SecureData }, ctx: RequestContext): AkbankRequest {
  return {
    ...head(TXN.sale, ctx),
    order: { orderId: p.orderId },
    transaction: { amount: akbankAmount(p.amount), currencyCode: currencyCode(p.currency), motoInd: 0, installCount: installCount(p.installmentNumber) },
    secureTransaction: { secureId: p.secure.secureId, secureEcomInd: p.secure.secureEcomInd, secureData: p.secure.secureData, secureMd: p.secure.secureMd },
    customer: { ipAddress: p.ip ?? '127.0.0.1' },
  };
}

/** A refund of part or all of the order's sale (the same request either way: the amount says). */
export function refundRequest(p: { orderId: string; amount: bigint; currency: Currency }, ctx: RequestContext): AkbankRequest {
  return { ...head(TXN.refund, ctx), transaction: { amount: akbankAmount(p.amount), currencyCode: currencyCode(p.currency) }, order: { orderId: p.orderId } };
}

/** A cancel (void) of the order's sale, the same day. */
export function cancelRequest(p: { orderId: string }, ctx: RequestContext): AkbankRequest {
  return { ...head(TXN.cancel, ctx), order: { orderId: p.orderId } };
}

/** The order's history: every sale, refund and cancel on it (Akbank has no separate status inquiry). */
export function orderHistoryRequest(p: { orderId: string }, ctx: RequestContext): AkbankRequest {
  return { ...head(TXN.orderHistory, ctx), order: { orderId: p.orderId } };
}

export interface ThreeDFormInput extends Omit<PaymentFields, 'card'> {
  callbackUrl: string;
  model: ThreeDModel;
  /** The card: the 3D and 3D Pay forms carry it, the 3D Host form does not. */
  card?: CardData;
}

/** The signed form the shopper's browser posts to Akbank's gate (okUrl and failUrl both the gateway's callback). */
export function threeDFormFields(p: ThreeDFormInput, ctx: RequestContext): Record<string, string> {
  const fields: Record<string, string> = {
    paymentModel: PAYMENT_MODEL[p.model],
    txnCode: TXN.threeDSale,
    merchantSafeId: ctx.credentials.merchant_safe_id,
    terminalSafeId: ctx.credentials.terminal_safe_id,
    orderId: p.orderId,
    lang: ctx.lang.toUpperCase(),
    amount: akbankAmount(p.amount),
    currencyCode: String(currencyCode(p.currency)),
    installCount: String(installCount(p.installmentNumber)),
    okUrl: p.callbackUrl,
    failUrl: p.callbackUrl,
    randomNumber: random(ctx),
    requestDateTime: requestDateTime(ctx.now()),
  };
  if (ctx.credentials.sub_merchant_id !== undefined) fields.subMerchantId = ctx.credentials.sub_merchant_id;
  if (p.model !== '3d_host' && p.card !== undefined) {
    fields.creditCard = p.card.number;
    fields.expiredDate = expiry(p.card);
    fields.cvv = p.card.securityCode ?? '';
  }
  return { ...fields, hash: formHash(fields, ctx.credentials.secret_key) };
}
