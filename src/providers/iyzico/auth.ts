// iyzico's IYZWSv2 request signature. Every call carries
//   Authorization: IYZWSv2 base64("apiKey:<apiKey>&randomKey:<randomKey>&signature:<hex>")
// where <hex> is HMAC-SHA256(secretKey, randomKey + uriPath + body) and `body` is the exact JSON
// text sent (nothing for a GET, whose query string is not signed either). The random key travels again in `x-iyzi-rnd`, so iyzico can recompute the HMAC; it
// only has to be unique per call (it makes two identical requests sign differently).
import { createHmac, randomBytes } from 'node:crypto';

export const AUTHORIZATION_SCHEME = 'IYZWSv2';

export interface SignatureInput {
  apiKey: string;
  secretKey: string;
  randomKey: string;
  /** The path after the base URL, e.g. `/payment/auth` (no host, no query). */
  uriPath: string;
  /** The request body exactly as sent; empty for a GET, which sends none. */
  body: string;
}

/** The HMAC-SHA256 hex digest iyzico recomputes from the request. */
export function iyzicoSignature({ secretKey, randomKey, uriPath, body }: Omit<SignatureInput, 'apiKey'>): string {
  return createHmac('sha256', secretKey).update(randomKey + uriPath + body).digest('hex');
}

/** The whole `Authorization` header value for one request. */
export function authorizationHeader(input: SignatureInput): string {
  const params = `apiKey:${input.apiKey}&randomKey:${input.randomKey}&signature:${iyzicoSignature(input)}`;
  return `${AUTHORIZATION_SCHEME} ${Buffer.from(params, 'utf8').toString('base64')}`;
}

/** A fresh random key: a millisecond stamp and 64 random bits, so it never repeats in practice. */
export function newRandomKey(now: () => number = Date.now): string {
  return `${now()}${randomBytes(8).toString('hex')}`;
}
