import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * IYZWSv2 request authentication, checked the way iyzico checks it:
 *
 *   Authorization: IYZWSv2 base64("apiKey:" + apiKey + "&randomKey:" + rnd + "&signature:" + hex)
 *   hex = HMAC-SHA256(secretKey, rnd + uriPath + rawJsonBody)
 *
 * uriPath is the request path without the query string (a GET call's query is not signed). The
 * body is the exact bytes the client sent (iyzipay signs JSON.stringify(body), which is also what
 * it sends, "{}" on a GET). A call sent without a body is signed over the path alone, as
 * iyzico's Java and PHP clients sign their GET calls; "{}" is accepted for it too.
 */
export interface Credentials {
  apiKey: string;
  secretKey: string;
}

export type AuthResult = { ok: true } | { ok: false; errorCode: string; errorMessage: string };

/**
 * iyzico's answer for a signature that does not match (1000, seen from the sandbox); the code for an
 * unknown API key is the emulator's choice.
 */
export const AUTH_ERRORS = {
  unknownKey: { errorCode: '1001', errorMessage: 'Api bilgileri bulunamadı' },
  badSignature: { errorCode: '1000', errorMessage: 'Geçersiz imza' },
} as const;

export function verifyRequest(
  creds: Credentials,
  authorization: string | undefined,
  uriPath: string,
  rawBody: string,
): AuthResult {
  const parsed = parseAuthorization(authorization);
  if (!parsed || parsed.apiKey !== creds.apiKey) return { ok: false, ...AUTH_ERRORS.unknownKey };
  const signedBodies = rawBody === '' ? ['', '{}'] : [rawBody];
  const matches = signedBodies.map((body) => sameText(hmacHex(creds.secretKey, parsed.randomKey + uriPath + body), parsed.signature));
  if (!matches.includes(true)) return { ok: false, ...AUTH_ERRORS.badSignature };
  return { ok: true };
}

/** HMAC-SHA256 hex over values joined by ':' — iyzico's response and callback `signature`. */
export function responseSignature(secretKey: string, values: Array<string | number | undefined>): string {
  return hmacHex(secretKey, values.map((v) => (v === undefined ? '' : String(v))).join(':'));
}

function parseAuthorization(header: string | undefined): { apiKey: string; randomKey: string; signature: string } | null {
  const match = /^IYZWSv2 ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  if (!match) return null;
  const fields = new Map<string, string>();
  for (const part of Buffer.from(match[1], 'base64').toString('utf8').split('&')) {
    const at = part.indexOf(':');
    if (at > 0) fields.set(part.slice(0, at), part.slice(at + 1));
  }
  const apiKey = fields.get('apiKey');
  const randomKey = fields.get('randomKey');
  const signature = fields.get('signature');
  return apiKey && randomKey && signature ? { apiKey, randomKey, signature } : null;
}

function hmacHex(key: string, data: string): string {
  return createHmac('sha256', key).update(data, 'utf8').digest('hex');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
