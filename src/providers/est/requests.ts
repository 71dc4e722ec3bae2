// What the connector sends to EST: the 3D gate's form (posted by the shopper's browser) and the
// CC5Request bodies of the XML API. Field names and order follow mewebstudio/pos
// (EstPosRequestDataMapper.php, EstV3PosRequestDataMapper.php).
import type { CardData, Currency } from '../types.ts';
import { CURRENCY_CODES, taksitOf, toEstAmount } from './amount.ts';
import { ver3Hash } from './hash.ts';
import type { EstCredentials } from './settings.ts';
import type { CC5Fields } from './xml.ts';

export interface ThreeDFormInput {
  orderId: string;
  amount: bigint;
  currency: Currency;
  installmentNumber: number;
  callbackUrl: string;
  card: CardData;
  storetype: '3d' | '3d_pay';
  lang: 'tr' | 'en';
  /** The random the hash is salted with (rnd). */
  rnd: string;
}

function month(card: CardData): string {
  return card.expiryMonth.padStart(2, '0');
}

function yearYY(card: CardData): string {
  return card.expiryYear.slice(-2).padStart(2, '0');
}

/** The 3D gate form's fields that carry the card: never stored by the gateway. */
export const EST_CARD_FIELDS = ['pan', 'Ecom_Payment_Card_ExpDate_Month', 'Ecom_Payment_Card_ExpDate_Year', 'cv2'] as const;

/**
 * The 3D gate's form, signed with the ver3 hash. The transaction type goes under both names the
 * gates read: islemtipi (the older field) and TranType (ver3's); both are hashed like any field.
 * okUrl and failUrl are the same gateway address: the callback says itself which it is.
 */
export function threeDForm(credentials: EstCredentials, input: ThreeDFormInput): Record<string, string> {
  const fields: Record<string, string> = {
    clientid: credentials.client_id,
    storetype: input.storetype,
    amount: toEstAmount(input.amount),
    oid: input.orderId,
    okUrl: input.callbackUrl,
    failUrl: input.callbackUrl,
    rnd: input.rnd,
    lang: input.lang,
    currency: CURRENCY_CODES[input.currency],
    taksit: taksitOf(input.installmentNumber),
    islemtipi: 'Auth',
    TranType: 'Auth',
    pan: input.card.number,
    Ecom_Payment_Card_ExpDate_Month: month(input.card),
    Ecom_Payment_Card_ExpDate_Year: yearYY(input.card),
    cv2: input.card.securityCode ?? '',
    hashAlgorithm: 'ver3',
  };
  return { ...fields, hash: ver3Hash(fields, credentials.store_key) };
}

function account(credentials: EstCredentials): CC5Fields {
  return { Name: credentials.api_user, Password: credentials.api_password, ClientId: credentials.client_id };
}

export interface PaymentOrder {
  orderId: string;
  amount: bigint;
  currency: Currency;
  installmentNumber: number;
  ip?: string;
}

function order(o: PaymentOrder): CC5Fields {
  return {
    Type: 'Auth',
    IPAddress: o.ip ?? '',
    OrderId: o.orderId,
    Total: toEstAmount(o.amount),
    Currency: CURRENCY_CODES[o.currency],
    Taksit: taksitOf(o.installmentNumber),
  };
}

/** A direct (non-3D) sale with the card. */
export function chargeRequest(credentials: EstCredentials, o: PaymentOrder, card: CardData): CC5Fields {
  return {
    ...account(credentials),
    ...order(o),
    Number: card.number,
    Expires: `${month(card)}/${yearYY(card)}`,
    Cvv2Val: card.securityCode ?? '',
    Mode: 'P',
  };
}

/** What the 3D callback gave for the authorisation: md stands in for the card number. */
export interface ThreeDProof {
  md: string;
  xid: string;
  eci: string;
  cavv: string;
}

/** The sale after a 3D authentication ("3D" model): the card is the callback's md token. */
export function threeDAuthRequest(credentials: EstCredentials, o: PaymentOrder, proof: ThreeDProof): CC5Fields {
  return {
    ...account(credentials),
    ...order(o),
    Number: proof.md,
    PayerTxnId: proof.xid,
    PayerSecurityLevel: proof.eci,
    PayerAuthenticationCode: proof.cavv,
    CardholderPresentCode: '13',
    Mode: 'P',
  };
}

/** Returns part or all of a sale: Credit on the order. */
export function refundRequest(credentials: EstCredentials, orderId: string, amount: bigint, currency: Currency): CC5Fields {
  return { ...account(credentials), OrderId: orderId, Currency: CURRENCY_CODES[currency], Type: 'Credit', Total: toEstAmount(amount) };
}

/** Voids the order's sale (before the day's settlement). */
export function cancelRequest(credentials: EstCredentials, orderId: string): CC5Fields {
  return { ...account(credentials), OrderId: orderId, Type: 'Void' };
}

/** Asks what became of an order (its latest transaction). */
export function statusRequest(credentials: EstCredentials, orderId: string): CC5Fields {
  return { ...account(credentials), Extra: { ORDERSTATUS: 'QUERY' }, OrderId: orderId };
}

/** Lists every transaction of an order: its sale, credits and voids (mewebstudio's createOrderHistoryRequestData). */
export function historyRequest(credentials: EstCredentials, orderId: string): CC5Fields {
  return { ...account(credentials), OrderId: orderId, Extra: { ORDERHISTORY: 'QUERY' } };
}
