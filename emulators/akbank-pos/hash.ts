// The emulated Akbank's signatures, written apart from the connector's (src/providers/akbank-pos/
// hash.ts) so the two cannot agree on the same mistake; both are checked against mewebstudio/pos's
// vectors (test/akbank-pos/vectors.test.ts). HMAC-SHA512 under the secret key, Base64: over the
// API body (the `auth-hash` header), over the 3-D form's fields in the bank's order, and over the
// callback's fields that its `hashParams` lists.
import { createHmac, timingSafeEqual } from 'node:crypto';

const sign = (data: string, key: string): string => createHmac('sha512', Buffer.from(key, 'utf8')).update(Buffer.from(data, 'utf8')).digest().toString('base64');

/** The form's signed fields, in the order Akbank's documents list them. */
const FORM_ORDER =
  'paymentModel txnCode merchantSafeId terminalSafeId orderId lang amount ccbRewardAmount pcbRewardAmount xcbRewardAmount currencyCode installCount okUrl failUrl emailAddress subMerchantId creditCard expiredDate cvv randomNumber requestDateTime b2bIdentityNumber'.split(' ');

/** What the gate expects in the form's `hash`. */
export function expectedFormHash(field: (name: string) => string, secretKey: string): string {
  let data = '';
  for (const name of FORM_ORDER) data += field(name);
  return sign(data, secretKey);
}

/** The API body's signature, as the `auth-hash` header must carry it. */
export const bodyHash = (body: string, secretKey: string): string => sign(body, secretKey);

/** Whether the request's `auth-hash` signs its body. */
export function bodySigned(body: string, header: string, secretKey: string): boolean {
  const expected = Buffer.from(bodyHash(body, secretKey));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The callback's fields with `hashParams` (the names, "+"-joined) and `hash` added. */
export function signCallback(fields: Record<string, string>, secretKey: string): Record<string, string> {
  const names = Object.keys(fields);
  return { ...fields, hashParams: names.join('+'), hash: sign(names.map((n) => fields[n]).join(''), secretKey) };
}

/** What a callback's `hash` must be for its `hashParams`. */
export function callbackHashOf(fields: Record<string, string>, secretKey: string): string {
  return sign((fields.hashParams ?? '').split('+').map((n) => fields[n] ?? '').join(''), secretKey);
}
