// The merchant's account as the emulated KuveytPOS knows it, its currencies and its crypt: the
// bank's public test account (the one mewebstudio/pos's captured answers were signed for), so
// those answers check here as they are.
import { createHash } from 'node:crypto';

export interface KuveytTerminal {
  /** MerchantId: the shop number ("Mağaza No"). */
  merchantId: string;
  /** CustomerId: the customer number ("Müşteri No"). */
  customerId: string;
  /** The API user made in the POS panel, and its password (never sent: its SHA-1 signs). */
  userName: string;
  password: string;
}

export const DEFAULT_KUVEYT_TERMINAL: KuveytTerminal = { merchantId: '496', customerId: '400235', userName: 'apitest', password: 'api123' };

/** Four-digit ISO 4217 codes the emulated KuveytPOS takes in requests (its answers write three). */
export const CURRENCIES = new Set(['0949', '0840', '0978']);

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('base64');

/** HashData of a request: MerchantId, MerchantOrderId, Amount, OkUrl, FailUrl, UserName and the hashed password. */
export function requestHashOf(f: (name: string) => string, password: string): string {
  return sha1(['MerchantId', 'MerchantOrderId', 'Amount', 'OkUrl', 'FailUrl', 'UserName'].map(f).join('') + sha1(password));
}

/** HashData of the 3-D callback: MerchantOrderId, ResponseCode, OrderId and the hashed password. */
export function signCallback(a: { MerchantOrderId: string; ResponseCode: string; OrderId: string }, password: string): string {
  return sha1(a.MerchantOrderId + a.ResponseCode + a.OrderId + sha1(password));
}

/** HashData of a sale's answer: MerchantOrderId, RRN, ResponseCode, OrderId and the hashed password. */
export function signSale(a: { MerchantOrderId: string; RRN: string; ResponseCode: string; OrderId: string }, password: string): string {
  return sha1(a.MerchantOrderId + a.RRN + a.ResponseCode + a.OrderId + sha1(password));
}
