// The requests InterPOS takes, field for field as mewebstudio/pos
// src/DataMapper/RequestDataMapper/InterPosRequestDataMapper.php builds them (checked against its
// tests/Unit/DataMapper/RequestDataMapper/InterPosRequestDataMapperTest.php vectors in
// test/interpos/requests.test.ts). Every API call carries the API user (UserCode, UserPass) and
// the ShopCode, and is "NonSecure" for InterPOS: a 3D sale is a NonSecure Auth carrying the ACS's
// proof (MD, PayerTxnId, Eci, PayerAuthenticationCode). Refunds, voids and the status inquiry name
// the order by orgOrderId. The 3D form is signed with the store key (hash.ts).
import { randomBytes } from 'node:crypto';
import type { CardData, CardScheme, Currency } from '../types.ts';
import { schemeFromNumber } from '../simulator.ts';
import { CURRENCY_CODES, installmentCountOf, toInterPosAmount } from './amount.ts';
import { formHash } from './hash.ts';
import type { InterPosCredentials, InterPosModel } from './settings.ts';
import type { InterPosRequest } from './wire.ts';

/** InterPOS's SecureType for each 3D model. */
export const SECURE_TYPES: Readonly<Record<InterPosModel, string>> = { '3d': '3DModel', '3d_pay': '3DPay', '3d_host': '3DHost' };

/** MOTO ("mail order, telephone order"): never, the shopper is online. */
const MOTO = '0';

/** The form fields that carry the card to InterPOS's gate (kept out of anything the gateway writes). */
export const INTERPOS_CARD_FIELDS = ['Pan', 'Expiry', 'Cvv2', 'CardType'] as const;

/** CardType: 0 Visa, 1 Mastercard, 2 American Express, 3 Troy; '' when the number says none of these. */
const CARD_TYPES: Partial<Record<CardScheme, string>> = { visa: '0', mastercard: '1', american_express: '2', troy: '3' };

export function cardTypeOf(number: string): string {
  const scheme = schemeFromNumber(number);
  return scheme === null ? '' : (CARD_TYPES[scheme] ?? '');
}

/** Expiry as InterPOS takes it: month then year, two digits each ("1221"). */
export function expiryOf(card: CardData): string {
  return `${card.expiryMonth.padStart(2, '0')}${card.expiryYear.slice(-2)}`;
}

function cardFields(card: CardData): Record<string, string> {
  return { CardType: cardTypeOf(card.number), Pan: card.number, Expiry: expiryOf(card), Cvv2: card.securityCode ?? '' };
}

export interface RequestContext {
  credentials: InterPosCredentials;
  lang: string;
}

const account = (ctx: RequestContext) => ({ UserCode: ctx.credentials.user_code, UserPass: ctx.credentials.user_password, ShopCode: ctx.credentials.shop_code });

export interface ThreeDFormInput {
  orderId: string;
  amount: bigint;
  currency: Currency;
  installmentNumber: number;
  callbackUrl: string;
  /** Absent in the 3D Host model: the shopper types the card on InterPOS's page. */
  card?: CardData;
  model: InterPosModel;
  /** The form's random; a fresh one by default. */
  rnd?: string;
}

/** The signed form the shopper's browser posts to the gate (create3DFormData): OkUrl and FailUrl are both the payment's callback. */
export function threeDFormFields(input: ThreeDFormInput, ctx: RequestContext): Record<string, string> {
  const fields: Record<string, string> = {
    ShopCode: ctx.credentials.shop_code,
    TxnType: 'Auth',
    SecureType: SECURE_TYPES[input.model],
    PurchAmount: toInterPosAmount(input.amount),
    OrderId: input.orderId,
    OkUrl: input.callbackUrl,
    FailUrl: input.callbackUrl,
    Rnd: input.rnd ?? randomBytes(12).toString('hex').toUpperCase(),
    Lang: ctx.lang,
    Currency: CURRENCY_CODES[input.currency],
    InstallmentCount: installmentCountOf(input.installmentNumber),
    ...(input.card === undefined ? {} : cardFields(input.card)),
  };
  return { ...fields, Hash: formHash(fields as Parameters<typeof formHash>[0], ctx.credentials.store_key) };
}

export interface SaleInput {
  orderId: string;
  amount: bigint;
  currency: Currency;
  installmentNumber: number;
  card: CardData;
}

/** What every API sale (with the card, or the 3D model's) sends first. */
function sale(input: { orderId: string; amount: bigint; currency: Currency; installmentNumber: number }, ctx: RequestContext) {
  return {
    ...account(ctx),
    TxnType: 'Auth',
    SecureType: 'NonSecure',
    OrderId: input.orderId,
    PurchAmount: toInterPosAmount(input.amount),
    Currency: CURRENCY_CODES[input.currency],
    InstallmentCount: installmentCountOf(input.installmentNumber),
  };
}

/** A sale without 3D Secure (createNonSecurePaymentRequestData). */
export function saleRequest(input: SaleInput, ctx: RequestContext): InterPosRequest {
  return { ...sale(input, ctx), MOTO, Lang: ctx.lang, ...cardFields(input.card) };
}

export interface ThreeDSaleInput {
  orderId: string;
  amount: bigint;
  currency: Currency;
  installmentNumber: number;
  /** From the verified callback. */
  md: string;
  payerTxnId: string;
  eci: string;
  payerAuthenticationCode: string;
}

/** The 3D model's sale after an authenticated callback (create3DPaymentRequestData). */
export function threeDSaleRequest(input: ThreeDSaleInput, ctx: RequestContext): InterPosRequest {
  return {
    ...sale(input, ctx),
    MD: input.md,
    PayerTxnId: input.payerTxnId,
    Eci: input.eci,
    PayerAuthenticationCode: input.payerAuthenticationCode,
    MOTO,
    Lang: ctx.lang,
  };
}

/** A refund, partial or full (createRefundRequestData): the amount to give back. */
export function refundRequest(input: { orderId: string; amount: bigint }, ctx: RequestContext): InterPosRequest {
  return { ...account(ctx), orgOrderId: input.orderId, PurchAmount: toInterPosAmount(input.amount), TxnType: 'Refund', SecureType: 'NonSecure', Lang: ctx.lang, MOTO };
}

/** A void of the order's sale (createCancelRequestData). */
export function voidRequest(input: { orderId: string }, ctx: RequestContext): InterPosRequest {
  return { ...account(ctx), orgOrderId: input.orderId, TxnType: 'Void', SecureType: 'NonSecure', Lang: ctx.lang };
}

/** The order's status and refunds (createStatusRequestData, TxnType StatusHistory). */
export function statusRequest(input: { orderId: string }, ctx: RequestContext): InterPosRequest {
  return { ...account(ctx), orgOrderId: input.orderId, TxnType: 'StatusHistory', SecureType: 'NonSecure', Lang: ctx.lang };
}
