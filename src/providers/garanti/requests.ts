// What the connector sends GVP: the 3D form the shopper's browser posts to the 3D gate, and the
// XML requests (sale, 3D sale, refund, void, order inquiry). Amounts go as integer minor units
// ("10025" for 100.25), currencies as ISO 4217 numbers, a single payment's instalment count as ''.
import type { CardData, Currency, Shopper } from '../types.ts';
import { requestHash, threeDFormHash } from './hash.ts';
import type { GarantiCredentials } from './settings.ts';
import type { XmlNode } from './xml.ts';

export const API_VERSION = '512';
import { ISO_NUMERIC_CURRENCY as CURRENCY_CODES } from '../settings-fields.ts';

export { CURRENCY_CODES };
/** Placeholders GVP requires when the gateway knows nothing of the shopper. */
const PLACEHOLDER_EMAIL = 'shopper@example.com';
const PLACEHOLDER_IP = '127.0.0.1';
/** Void and order inquiry carry a fixed amount of 1.00 (GVP checks the field but not its value). */
const FIXED_AMOUNT = '100';

/** Minor units as GVP writes them. */
export function gvpAmount(minor: bigint): string {
  if (minor <= 0n) throw new RangeError('GVP amounts are positive');
  return minor.toString();
}

/** '' for a single payment, the count otherwise. */
export function gvpInstallment(count: number): string {
  return count > 1 ? String(count) : '';
}

export interface FormContext {
  credentials: GarantiCredentials;
  mode: 'TEST' | 'PROD';
  securityLevel: '3D' | '3D_PAY';
  lang: string;
}

export interface FormPayment {
  orderId: string;
  amount: bigint;
  currency: Currency;
  installmentNumber: number;
  callbackUrl: string;
  card: CardData;
  shopper?: Shopper;
}

/** The 3D form's fields that carry the card: never stored by the gateway. */
export const GARANTI_CARD_FIELDS = ['cardnumber', 'cardexpiredatemonth', 'cardexpiredateyear', 'cardcvv2'] as const;

/** The fields of the 3D form (mewebstudio's create3DFormData, plus the shopper's email and language). */
export function threeDFormFields(payment: FormPayment, ctx: FormContext): Record<string, string> {
  const { credentials: c } = ctx;
  const base = {
    secure3dsecuritylevel: ctx.securityLevel,
    mode: ctx.mode,
    apiversion: API_VERSION,
    terminalprovuserid: c.provision_user,
    terminaluserid: c.provision_user,
    terminalmerchantid: c.merchant_id,
    terminalid: c.terminal_id,
    txntype: 'sales',
    txnamount: gvpAmount(payment.amount),
    txncurrencycode: CURRENCY_CODES[payment.currency],
    txninstallmentcount: gvpInstallment(payment.installmentNumber),
    orderid: payment.orderId,
    successurl: payment.callbackUrl,
    errorurl: payment.callbackUrl,
    customeremailaddress: payment.shopper?.email ?? PLACEHOLDER_EMAIL,
    customeripaddress: payment.shopper?.ip ?? PLACEHOLDER_IP,
    lang: ctx.lang,
    cardnumber: payment.card.number,
    cardexpiredatemonth: payment.card.expiryMonth.padStart(2, '0'),
    cardexpiredateyear: payment.card.expiryYear.slice(-2),
    cardcvv2: payment.card.securityCode ?? '',
  };
  const secure3dhash = threeDFormHash({
    terminalId: base.terminalid,
    orderId: base.orderid,
    amount: base.txnamount,
    currencyCode: base.txncurrencycode,
    successUrl: base.successurl,
    errorUrl: base.errorurl,
    type: base.txntype,
    installment: base.txninstallmentcount,
    storeKey: c.store_key,
    password: c.provision_password,
  });
  return { ...base, secure3dhash };
}

export interface XmlContext {
  credentials: GarantiCredentials;
  mode: 'TEST' | 'PROD';
}

type User = 'provision' | 'refund';

function terminal(ctx: XmlContext, user: User): XmlNode {
  const id = user === 'refund' ? ctx.credentials.refund_user : ctx.credentials.provision_user;
  return { ProvUserID: id, UserID: id, HashData: '', ID: ctx.credentials.terminal_id, MerchantID: ctx.credentials.merchant_id };
}

interface Parts {
  user: User;
  ip: string;
  email?: string;
  card?: CardData;
  orderId: string;
  transaction: XmlNode & { Type: string; Amount: string; CurrencyCode: string };
}

/** A GVPSRequest with its Terminal/HashData computed over the request as GVP reads it. */
function gvpsRequest(ctx: XmlContext, parts: Parts): XmlNode {
  const term = terminal(ctx, parts.user);
  const password = parts.user === 'refund' ? ctx.credentials.refund_password : ctx.credentials.provision_password;
  term.HashData = requestHash({
    orderId: parts.orderId,
    terminalId: ctx.credentials.terminal_id,
    ...(parts.card ? { cardNumber: parts.card.number } : {}),
    amount: parts.transaction.Amount,
    currencyCode: parts.transaction.CurrencyCode,
    password,
  });
  return {
    Mode: ctx.mode,
    Version: API_VERSION,
    Terminal: term,
    Customer: { IPAddress: parts.ip, ...(parts.email === undefined ? {} : { EmailAddress: parts.email }) },
    ...(parts.card
      ? { Card: { Number: parts.card.number, ExpireDate: `${parts.card.expiryMonth.padStart(2, '0')}${parts.card.expiryYear.slice(-2)}`, CVV2: parts.card.securityCode ?? '' } }
      : {}),
    Order: { OrderID: parts.orderId },
    Transaction: parts.transaction,
  };
}

export interface SaleInput {
  orderId: string;
  amount: bigint;
  currency: Currency;
  installmentNumber: number;
  card: CardData;
  shopper?: Shopper;
}

/** A non-3D sale with the card (CardholderPresentCode 0: e-commerce, MotoInd N). */
export function saleRequest(input: SaleInput, ctx: XmlContext): XmlNode {
  return gvpsRequest(ctx, {
    user: 'provision',
    ip: input.shopper?.ip ?? PLACEHOLDER_IP,
    ...(input.shopper?.email === undefined ? {} : { email: input.shopper.email }),
    card: input.card,
    orderId: input.orderId,
    transaction: {
      Type: 'sales',
      InstallmentCnt: gvpInstallment(input.installmentNumber),
      Amount: gvpAmount(input.amount),
      CurrencyCode: CURRENCY_CODES[input.currency],
      CardholderPresentCode: '0',
      MotoInd: 'N',
    },
  });
}

export interface ThreeDSaleInput {
  orderId: string;
  amount: bigint;
  currency: Currency;
  installment: string;
  ip: string;
  cavv: string;
  eci: string;
  xid: string;
  md: string;
}

/** The sale that completes an authenticated 3D payment (CardholderPresentCode 13, the ACS's proof in Secure3D). */
export function threeDSaleRequest(input: ThreeDSaleInput, ctx: XmlContext): XmlNode {
  return gvpsRequest(ctx, {
    user: 'provision',
    ip: input.ip,
    orderId: input.orderId,
    transaction: {
      Type: 'sales',
      InstallmentCnt: input.installment,
      Amount: gvpAmount(input.amount),
      CurrencyCode: CURRENCY_CODES[input.currency],
      CardholderPresentCode: '13',
      MotoInd: 'N',
      Secure3D: { AuthenticationCode: input.cavv, SecurityLevel: input.eci, TxnID: input.xid, Md: input.md },
    },
  });
}

/** A refund of part or all of an order, as the PROVRFN user. */
export function refundRequest(input: { orderId: string; amount: bigint; currency: Currency }, ctx: XmlContext): XmlNode {
  return gvpsRequest(ctx, {
    user: 'refund',
    ip: PLACEHOLDER_IP,
    orderId: input.orderId,
    transaction: {
      Type: 'refund',
      InstallmentCnt: '',
      Amount: gvpAmount(input.amount),
      CurrencyCode: CURRENCY_CODES[input.currency],
      CardholderPresentCode: '0',
      MotoInd: 'N',
    },
  });
}

/** A void of the order's sale (same day), as the PROVRFN user; OriginalRetrefNum names the sale when known. */
export function voidRequest(input: { orderId: string; retrefNum?: string }, ctx: XmlContext): XmlNode {
  return gvpsRequest(ctx, {
    user: 'refund',
    ip: PLACEHOLDER_IP,
    orderId: input.orderId,
    transaction: {
      Type: 'void',
      InstallmentCnt: '',
      Amount: FIXED_AMOUNT,
      CurrencyCode: CURRENCY_CODES.TRY,
      CardholderPresentCode: '0',
      MotoInd: 'N',
      ...(input.retrefNum === undefined ? {} : { OriginalRetrefNum: input.retrefNum }),
    },
  });
}

/** What GVP knows of an order: its state (orderinq), or every transaction on it (orderhistoryinq). */
export function orderInquiryRequest(input: { orderId: string; currency: Currency }, ctx: XmlContext, type: 'orderinq' | 'orderhistoryinq' = 'orderinq'): XmlNode {
  return gvpsRequest(ctx, {
    user: 'provision',
    ip: PLACEHOLDER_IP,
    orderId: input.orderId,
    transaction: {
      Type: type,
      InstallmentCnt: '',
      Amount: FIXED_AMOUNT,
      CurrencyCode: CURRENCY_CODES[input.currency],
      CardholderPresentCode: '0',
      MotoInd: 'N',
    },
  });
}
