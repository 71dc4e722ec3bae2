// iyzico's official Node client (npm iyzipay), typed loosely and promisified, for driving the
// emulator with code nobody here wrote.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type Callback = (err: unknown, result: IyziResult) => void;
type Resource = Record<'create' | 'retrieve' | 'delete', (params: object, cb: Callback) => void>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type IyziResult = Record<string, any>;

const Iyzipay = require('iyzipay') as new (config: { apiKey: string; secretKey: string; uri: string }) => Record<string, Resource>;
const utils = require('iyzipay/lib/utils') as {
  calculateHmacSHA256Signature(params: unknown[], secretKey: string): string;
  generateAuthorizationHeaderV2(name: string, apiKey: string, sep: string, secretKey: string, uri: string, body: object, rnd: string): string;
};
export const iyzipayUtils = utils;

export interface IyziClient {
  call(resource: string, method: 'create' | 'retrieve' | 'delete', params: object): Promise<IyziResult>;
}

export function iyzipay(config: { apiKey: string; secretKey: string; uri: string }): IyziClient {
  const client = new Iyzipay(config);
  return {
    call: (resource, method, params) =>
      new Promise((resolve, reject) => client[resource][method](params, (err, result) => (err ? reject(err) : resolve(result)))),
  };
}

/** The request iyzipay's samples send, with the card and amounts a test chooses. */
export function paymentRequest(cardNumber: string, overrides: Record<string, unknown> = {}) {
  return {
    locale: 'en',
    conversationId: `conv-${Math.random().toString(36).slice(2)}`,
    price: '1',
    paidPrice: '1.2',
    currency: 'TRY',
    installment: '1',
    basketId: 'B67832',
    paymentChannel: 'WEB',
    paymentGroup: 'PRODUCT',
    paymentCard: { cardHolderName: 'John Doe', cardNumber, expireMonth: '12', expireYear: '2030', cvc: '123', registerCard: '0' },
    buyer: {
      id: 'BY789',
      name: 'John',
      surname: 'Doe',
      gsmNumber: '+905350000000',
      email: 'email@email.com',
      identityNumber: '74300864791',
      registrationAddress: 'Nidakule Göztepe, Merdivenköy Mah. Bora Sok. No:1',
      ip: '85.34.78.112',
      city: 'Istanbul',
      country: 'Turkey',
      zipCode: '34732',
    },
    shippingAddress: { contactName: 'Jane Doe', city: 'Istanbul', country: 'Turkey', address: 'Nidakule Göztepe No:1', zipCode: '34742' },
    billingAddress: { contactName: 'Jane Doe', city: 'Istanbul', country: 'Turkey', address: 'Nidakule Göztepe No:1', zipCode: '34742' },
    basketItems: [
      { id: 'BI101', name: 'Binocular', category1: 'Collectibles', itemType: 'PHYSICAL', price: '0.3' },
      { id: 'BI102', name: 'Game code', category1: 'Game', itemType: 'VIRTUAL', price: '0.5' },
      { id: 'BI103', name: 'Usb', category1: 'Electronics', itemType: 'PHYSICAL', price: '0.2' },
    ],
    ...overrides,
  };
}

/** The first form of an HTML page whose hidden inputs match `where` (action + fields), as a browser would post it. */
export function formIn(html: string, where: Record<string, string> = {}): { action: string; fields: Record<string, string> } {
  for (const match of html.matchAll(/<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)) {
    const fields: Record<string, string> = {};
    for (const input of match[2].matchAll(/<input[^>]*name="([^"]*)"[^>]*value="([^"]*)"/g)) fields[unescape(input[1])] = unescape(input[2]);
    if (Object.entries(where).every(([k, v]) => fields[k] === v)) return { action: unescape(match[1]), fields };
  }
  throw new Error(`no matching form in ${html}`);
}

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

export async function postForm(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
}
