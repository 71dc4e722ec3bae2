// KuveytPOS's signatures, as mewebstudio/pos src/Crypt/KuveytPosCrypt.php computes them: Base64 of
// SHA-1, fields joined with nothing. The password never travels: it enters as its own Base64
// SHA-1 ("HashedPassword"). A request's HashData covers MerchantId, MerchantOrderId, Amount, OkUrl,
// FailUrl (the last four empty where a request has none), UserName and the hashed password.
// mewebstudio checks no answer; the bank signs them with the same hashed password, as its
// captured answers show (test/kuveytpos/vectors.test.ts checks both against them):
//  - the 3-D callback (AuthenticationResponse): MerchantOrderId, ResponseCode, OrderId;
//  - a sale's or provision's answer: MerchantOrderId, RRN, ResponseCode, OrderId.
import { createHash, timingSafeEqual } from 'node:crypto';

export const sha1Base64 = (text: string): string => createHash('sha1').update(text, 'utf8').digest('base64');

export const hashedPassword = (password: string): string => sha1Base64(password);

/** The fields a request's HashData covers ('' for those it does not carry). */
export interface SignedRequest {
  MerchantId: string;
  MerchantOrderId?: string;
  Amount?: string;
  OkUrl?: string;
  FailUrl?: string;
  UserName: string;
}

export function requestHash(r: SignedRequest, password: string): string {
  return sha1Base64([r.MerchantId, r.MerchantOrderId ?? '', r.Amount ?? '', r.OkUrl ?? '', r.FailUrl ?? '', r.UserName, hashedPassword(password)].join(''));
}

/** An answer's fields as the bank signs them. */
export interface SignedAnswer {
  MerchantOrderId?: string;
  ResponseCode?: string;
  OrderId?: string;
  RRN?: string;
}

export function callbackHash(a: SignedAnswer, password: string): string {
  return sha1Base64(`${a.MerchantOrderId ?? ''}${a.ResponseCode ?? ''}${a.OrderId ?? ''}${hashedPassword(password)}`);
}

export function saleAnswerHash(a: SignedAnswer, password: string): string {
  return sha1Base64(`${a.MerchantOrderId ?? ''}${a.RRN ?? ''}${a.ResponseCode ?? ''}${a.OrderId ?? ''}${hashedPassword(password)}`);
}

/** Compares in constant time; false for an empty or differently sized hash. */
export function sameHash(expected: string, given: string | undefined): boolean {
  if (given === undefined || given === '') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
