// PosNet's requests (mewebstudio/pos PosNetRequestDataMapper): each a <posnetRequest> with the
// merchant's mid and tid and one operation element. Amounts are minor units ("10025"), currencies
// PosNet's two letters, instalments two digits ("00" for one payment), expiry YYMM. The order is
// known by its XID (20 characters) in the 3-D flow and the sale; inquiries, refunds and cancels name
// it on 24 characters: "TDSC" + XID for a 3-D payment, the XID left-padded with zeros otherwise.
import type { CardData, Currency } from '../types.ts';
import { requestMac, type MacKey } from './hash.ts';
import type { PosnetCredentials } from './settings.ts';
import type { XmlNode } from './xml.ts';

export const POSNET_CURRENCY: Readonly<Record<Currency, string>> = { TRY: 'TL', USD: 'US', EUR: 'EU', GBP: 'GB' };

const THREE_D_PREFIX = 'TDSC';

/** The payment's reference: the order as inquiries name it (see the header). */
export function orderRef(xid: string, threeD: boolean): string {
  return threeD ? `${THREE_D_PREFIX}${xid}` : xid.padStart(24, '0');
}

/** The XID of a reference this connector wrote; null for anything else. */
export function xidOf(reference: string): string | null {
  const match = /^(?:TDSC|0000)([A-Za-z0-9]{20})$/.exec(reference);
  return match ? match[1]! : null;
}

export function isThreeDRef(reference: string): boolean {
  return reference.startsWith(THREE_D_PREFIX);
}

export function posnetAmount(minor: bigint): string {
  if (minor <= 0n) throw new RangeError('PosNet amounts are positive');
  return minor.toString();
}

export function posnetInstallment(count: number): string {
  return count > 1 ? String(count).padStart(2, '0') : '00';
}

const expDate = (card: CardData) => `${card.expiryYear.slice(-2)}${card.expiryMonth.padStart(2, '0')}`;

export const macKeyOf = (c: PosnetCredentials): MacKey => ({ merchantId: c.merchant_id, terminalId: c.terminal_id, encKey: c.enc_key });

const head = (c: PosnetCredentials) => ({ mid: c.merchant_id, tid: c.terminal_id });

export interface PosnetOrder {
  xid: string;
  amount: bigint;
  currency: Currency;
  installmentNumber: number;
}

/** The 3-D start: the card goes to the bank server to server, the bank answers the sealed form data. */
export function oosRequestData(c: PosnetCredentials, order: PosnetOrder, card: CardData): XmlNode {
  return {
    ...head(c),
    oosRequestData: {
      posnetid: c.posnet_id,
      ccno: card.number,
      expDate: expDate(card),
      cvc: card.securityCode ?? '',
      amount: posnetAmount(order.amount),
      currencyCode: POSNET_CURRENCY[order.currency],
      installment: posnetInstallment(order.installmentNumber),
      XID: order.xid,
      cardHolderName: card.holderName,
      tranType: 'Sale',
    },
  };
}

/** The 3-D gate form the shopper's browser posts: the sealed data the bank gave, nothing of the card. */
export function threeDFormFields(c: PosnetCredentials, sealed: { data1: string; data2: string; sign: string }, callbackUrl: string, lang: string): Record<string, string> {
  return { mid: c.merchant_id, posnetID: c.posnet_id, posnetData: sealed.data1, posnetData2: sealed.data2, digest: sealed.sign, merchantReturnURL: callbackUrl, url: '', lang };
}

export interface CallbackPackets {
  bankData: string;
  merchantData: string;
  sign: string;
}

type MacOrder = { xid: string; amount: bigint; currency: Currency };
const macOf = (c: PosnetCredentials, order: MacOrder) => requestMac(macKeyOf(c), { xid: order.xid, amount: posnetAmount(order.amount), currency: POSNET_CURRENCY[order.currency] });

/** Asks the bank to open the callback's packets (the shopper's 3-D result). */
export function oosResolveMerchantData(c: PosnetCredentials, order: MacOrder, packets: CallbackPackets): XmlNode {
  return { ...head(c), oosResolveMerchantData: { bankData: packets.bankData, merchantData: packets.merchantData, sign: packets.sign, mac: macOf(c, order) } };
}

/** The sale that completes an authenticated 3-D payment. */
export function oosTranData(c: PosnetCredentials, order: MacOrder, packets: CallbackPackets): XmlNode {
  return { ...head(c), oosTranData: { bankData: packets.bankData, merchantData: packets.merchantData, sign: packets.sign, wpAmount: '0', mac: macOf(c, order) } };
}

/** A sale without 3-D Secure. */
export function saleRequest(c: PosnetCredentials, order: PosnetOrder, card: CardData): XmlNode {
  return {
    ...head(c),
    tranDateRequired: '1',
    sale: {
      orderID: order.xid,
      installment: posnetInstallment(order.installmentNumber),
      amount: posnetAmount(order.amount),
      currencyCode: POSNET_CURRENCY[order.currency],
      ccno: card.number,
      expDate: expDate(card),
      cvc: card.securityCode ?? '',
    },
  };
}

/** A refund of part or all of an order. */
export function returnRequest(c: PosnetCredentials, reference: string, amount: bigint, currency: Currency): XmlNode {
  return { ...head(c), tranDateRequired: '1', return: { amount: posnetAmount(amount), currencyCode: POSNET_CURRENCY[currency], orderID: reference } };
}

/** A void of the order's sale (same day). */
export function reverseRequest(c: PosnetCredentials, reference: string): XmlNode {
  return { ...head(c), tranDateRequired: '1', reverse: { transaction: 'sale', orderID: reference } };
}

/** Every transaction PosNet holds on an order. */
export function agreementRequest(c: PosnetCredentials, reference: string): XmlNode {
  return { ...head(c), agreement: { orderID: reference } };
}
