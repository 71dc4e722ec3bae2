// PayFor's requests, field for field as mewebstudio/pos src/DataMapper/RequestDataMapper/
// PayForPosRequestDataMapper.php builds them (its vectors: test/payfor/vectors.test.ts). Amounts
// travel as decimals of the currency's major unit ("100.25", "100" for a whole amount, as PHP
// writes a float), currencies as ISO 4217 numbers, one instalment as "0", the expiry as MMYY.
// Every XML request names the merchant, the API user and its password, and the member code.
import { randomBytes } from 'node:crypto';
import { ISO_NUMERIC_CURRENCY } from '../settings-fields.ts';
import type { CardData, Currency } from '../types.ts';
import { formHash } from './hash.ts';
import { QNB_MBR_ID, type PayforCredentials } from './settings.ts';
import type { PayforRequest } from './xml.ts';

/** The gate form's card fields: the shopper's browser fills them, the gateway never logs them. */
export const PAYFOR_CARD_FIELDS = ['Pan', 'Expiry', 'Cvv2', 'CardHolderName'] as const;

export interface RequestContext {
  credentials: PayforCredentials;
  lang: 'tr' | 'en';
}

/** Minor units as PayFor's decimal: 10025 -> "100.25", 10050 -> "100.5", 10000 -> "100". Throws RangeError for zero or less. */
export function payforAmount(minor: bigint): string {
  if (minor <= 0n) throw new RangeError('PayFor takes only a positive amount');
  const major = minor / 100n;
  const cents = (minor % 100n).toString().padStart(2, '0').replace(/0+$/, '');
  return cents === '' ? major.toString() : `${major}.${cents}`;
}

/** PayFor's decimal back to minor units; null when it is not one. */
export function minorOf(decimal: string): bigint | null {
  const match = /^(\d{1,15})(?:\.(\d{1,2}))?$/.exec(decimal);
  if (!match) return null;
  return BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
}

/** One payment is "0", as mewebstudio maps it; 2..n are themselves. */
export const installmentCount = (n: number): string => (n > 1 ? String(n) : '0');

const expiry = (card: CardData): string => `${card.expiryMonth.padStart(2, '0')}${card.expiryYear.slice(-2)}`;

function account(ctx: RequestContext): PayforRequest {
  return { MerchantId: ctx.credentials.merchant_id, UserCode: ctx.credentials.user_code, UserPass: ctx.credentials.user_password, MbrId: QNB_MBR_ID };
}

export interface PaymentFields {
  orderId: string;
  amount: bigint;
  currency: Currency;
  installmentNumber: number;
  card: CardData;
}

/** A sale without 3-D Secure (NonSecure Auth). */
export function saleRequest(p: PaymentFields, ctx: RequestContext): PayforRequest {
  return {
    ...account(ctx),
    MOTO: '0',
    OrderId: p.orderId,
    SecureType: 'NonSecure',
    TxnType: 'Auth',
    PurchAmount: payforAmount(p.amount),
    Currency: ISO_NUMERIC_CURRENCY[p.currency],
    InstallmentCount: installmentCount(p.installmentNumber),
    Lang: ctx.lang,
    CardHolderName: p.card.holderName,
    Pan: p.card.number,
    Expiry: expiry(p.card),
    Cvv2: p.card.securityCode ?? '',
  };
}

/** The 3D model's sale: the authentication's RequestGuid stands for the card and the amount. */
export function threeDPaymentRequest(p: { requestGuid: string; orderId: string }, ctx: RequestContext): PayforRequest {
  return { RequestGuid: p.requestGuid, UserCode: ctx.credentials.user_code, UserPass: ctx.credentials.user_password, OrderId: p.orderId, SecureType: '3DModelPayment' };
}

/** A refund of part or all of the order's sale (the same request either way). */
export function refundRequest(p: { orderId: string; amount: bigint; currency: Currency }, ctx: RequestContext): PayforRequest {
  return { ...account(ctx), SecureType: 'NonSecure', Lang: ctx.lang, OrgOrderId: p.orderId, TxnType: 'Refund', PurchAmount: payforAmount(p.amount), Currency: ISO_NUMERIC_CURRENCY[p.currency] };
}

/**
 * A void (cancel) of the order's sale. mewebstudio also sends the order's Currency; a cancel does
 * not know it here (the contract's CancelInput has none), and the order id names the sale alone.
 */
export function voidRequest(p: { orderId: string; currency?: Currency }, ctx: RequestContext): PayforRequest {
  return { ...account(ctx), OrgOrderId: p.orderId, SecureType: 'NonSecure', TxnType: 'Void', ...(p.currency ? { Currency: ISO_NUMERIC_CURRENCY[p.currency] } : {}), Lang: ctx.lang };
}

/** The order inquiry: the order's sale as the bank holds it. */
export function statusRequest(p: { orderId: string }, ctx: RequestContext): PayforRequest {
  return { ...account(ctx), OrgOrderId: p.orderId, SecureType: 'Inquiry', Lang: ctx.lang, TxnType: 'OrderInquiry' };
}

/** The order's history: every sale, refund and void on it. */
export function historyRequest(p: { orderId: string }, ctx: RequestContext): PayforRequest {
  return { ...account(ctx), SecureType: 'Report', OrderId: p.orderId, TxnType: 'TxnHistory', Lang: ctx.lang };
}

export interface ThreeDFormInput extends PaymentFields {
  callbackUrl: string;
  model: '3d' | '3d_pay';
  /** PayFor's random; fresh by default. */
  rnd?: string;
}

/** The signed form the shopper's browser posts to PayFor's 3D gate (the callback comes back to the gateway on both OkUrl and FailUrl). */
export function threeDFormFields(p: ThreeDFormInput, ctx: RequestContext): Record<string, string> {
  const fields = {
    MbrId: QNB_MBR_ID,
    MerchantID: ctx.credentials.merchant_id,
    UserCode: ctx.credentials.user_code,
    OrderId: p.orderId,
    Lang: ctx.lang,
    SecureType: p.model === '3d_pay' ? '3DPay' : '3DModel',
    TxnType: 'Auth',
    PurchAmount: payforAmount(p.amount),
    InstallmentCount: installmentCount(p.installmentNumber),
    Currency: ISO_NUMERIC_CURRENCY[p.currency],
    OkUrl: p.callbackUrl,
    FailUrl: p.callbackUrl,
    Rnd: p.rnd ?? randomBytes(16).toString('hex'),
  };
  return {
    ...fields,
    CardHolderName: p.card.holderName,
    Pan: p.card.number,
    Expiry: expiry(p.card),
    Cvv2: p.card.securityCode ?? '',
    Hash: formHash(fields, ctx.credentials.store_key),
  };
}
