// The one module that signs and verifies the two signature forms of docs/api-contract.md. REST auth, response
// signing, outgoing webhooks and the merchant helper all use it, so the forms cannot drift apart.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type RawBody = Buffer | string;

/** Body form: hex HMAC-SHA256 of the raw request body bytes. */
export function signBody(secret: string, rawBody: RawBody): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * Timestamp form: hex HMAC-SHA256 over `<timestamp>\n<method>\n<path>\n` followed by the raw body.
 * The body is fed to the HMAC as the bytes received (a second update() is the same as
 * concatenating), never decoded and re-encoded, because any re-serialization changes the bytes.
 */
export function signTimestamped(
  secret: string,
  timestamp: string,
  method: string,
  path: string,
  rawBody: RawBody,
): string {
  return createHmac('sha256', secret)
    .update(`${timestamp}\n${method}\n${path}\n`)
    .update(rawBody)
    .digest('hex');
}

const HEX = /^(?:[0-9a-fA-F]{2})+$/;

/**
 * Constant-time comparison of two hex digests. A length mismatch returns early: the length of a
 * SHA-256 digest is public, so that leaks nothing, and timingSafeEqual throws on unequal lengths.
 */
export function safeEqualHex(a: string, b: string): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  if (a.length !== b.length || !HEX.test(a) || !HEX.test(b)) return false;
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

/** Body form check, for REST auth. */
export function verifyBodySignature(secret: string, rawBody: RawBody, signature: string): boolean {
  return safeEqualHex(signBody(secret, rawBody), signature);
}

/** Window for timestamped signatures, both directions; always enforced (no "0 means off"). */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

// Unix seconds as plain digits; 15 digits keeps Number() exact and refuses absurd input.
const UNIX_SECONDS = /^\d{1,15}$/;

/** True when `timestamp` is unix seconds within 300 s of `nowSeconds`, past or future. */
export function isTimestampFresh(timestamp: string, nowSeconds: number): boolean {
  if (typeof timestamp !== 'string' || !UNIX_SECONDS.test(timestamp)) return false;
  return Math.abs(nowSeconds - Number(timestamp)) <= TIMESTAMP_TOLERANCE_SECONDS;
}

/**
 * The `<path>` that a webhook signature covers: the URL's path with the leading slash, without
 * query string or fragment, `/` when empty. WHATWG URL parsing is used so the path matches what
 * the HTTP client actually sends. Throws TypeError on an invalid URL.
 */
export function webhookPath(url: string): string {
  const { pathname } = new URL(url);
  return pathname === '' ? '/' : pathname;
}

export interface VerifyWebhookInput {
  /** Your API secret. */
  secret: string;
  /** The `X-Timestamp` header. */
  timestamp: string | null | undefined;
  /** The `X-Signature` header. */
  signature: string | null | undefined;
  /** Path of your webhook address, e.g. `/hooks/gateway` (no query string). */
  path: string;
  /** The body exactly as received, before any JSON parsing. */
  rawBody: RawBody;
  /** Current time; defaults to now. */
  now?: Date;
}

/**
 * Verifies a webhook sent by the gateway (also usable for the timestamp-form API operations).
 * Returns false for a bad signature or a timestamp more than 5 minutes old or in the future;
 * answer 401 then. Parse the JSON only after this returns true, from the same bytes.
 *
 * @example
 * app.post('/hooks/gateway', express.raw({ type: 'application/json' }), (req, res) => {
 *   const ok = verifyWebhook({
 *     secret: process.env.GATEWAY_API_SECRET!,
 *     timestamp: req.get('X-Timestamp'),
 *     signature: req.get('X-Signature'),
 *     path: '/hooks/gateway',
 *     rawBody: req.body, // Buffer
 *   });
 *   if (!ok) return res.sendStatus(401);
 *   const event = JSON.parse(req.body.toString('utf8'));
 *   // ...retrieve the record by event token, then:
 *   res.sendStatus(200);
 * });
 */
export function verifyWebhook(input: VerifyWebhookInput): boolean {
  const { secret, timestamp, signature, path, rawBody, now = new Date() } = input;
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  if (!isTimestampFresh(timestamp, Math.floor(now.getTime() / 1000))) return false;
  return safeEqualHex(signTimestamped(secret, timestamp, 'POST', path, rawBody), signature);
}
