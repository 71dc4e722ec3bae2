// Akbank's new virtual POS signs everything with HMAC-SHA512 under the terminal's secret key
// ("Güvenlik anahtarı"), Base64 (mewebstudio/pos src/Crypt/AkbankPosCrypt.php): the API request
// body is signed whole and the signature travels in the `auth-hash` header; the 3-D form is
// signed over its fields in a fixed order, joined with no separator; the bank's callback names
// the fields it signed in `hashParams` ("txnCode+responseCode+...") and signs their values
// joined the same way. The secret key is used as the text it is (not hex-decoded).
import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA512 of the text under the key, Base64. */
export function hmacBase64(text: string, secretKey: string): string {
  return createHmac('sha512', secretKey).update(text, 'utf8').digest('base64');
}

/** The 3-D form's signed fields, in the bank's order; a field the form lacks counts as ''. */
export const FORM_HASH_FIELDS = [
  'paymentModel',
  'txnCode',
  'merchantSafeId',
  'terminalSafeId',
  'orderId',
  'lang',
  'amount',
  'ccbRewardAmount',
  'pcbRewardAmount',
  'xcbRewardAmount',
  'currencyCode',
  'installCount',
  'okUrl',
  'failUrl',
  'emailAddress',
  'subMerchantId',
  'creditCard',
  'expiredDate',
  'cvv',
  'randomNumber',
  'requestDateTime',
  'b2bIdentityNumber',
] as const;

/** The `hash` of a 3-D form (3D, 3D Pay, 3D Host: the host form has no card fields). */
export function formHash(fields: Readonly<Record<string, string | undefined>>, secretKey: string): string {
  return hmacBase64(FORM_HASH_FIELDS.map((name) => fields[name] ?? '').join(''), secretKey);
}

/** The names the callback says it signed (its `hashParams`, split on "+"). */
export function signedNames(fields: Readonly<Record<string, string | undefined>>): string[] {
  const params = fields.hashParams ?? '';
  return params === '' ? [] : params.split('+');
}

/** The callback's hash as the bank computes it; '' when it names nothing to sign. */
export function callbackHash(fields: Readonly<Record<string, string | undefined>>, secretKey: string): string {
  const names = signedNames(fields);
  return names.length === 0 ? '' : hmacBase64(names.map((name) => fields[name] ?? '').join(''), secretKey);
}

/** Whether `hash` is the bank's for the fields `hashParams` names (compared in constant time). */
export function checkCallbackHash(fields: Readonly<Record<string, string | undefined>>, secretKey: string): boolean {
  const expected = Buffer.from(callbackHash(fields, secretKey));
  const actual = Buffer.from(fields.hash ?? '');
  return expected.length > 0 && expected.length === actual.length && timingSafeEqual(expected, actual);
}
