// the two signature forms of docs/api-contract.md, with Node's crypto only. The gateway signs and checks with the
// same formulas (src/domain/signatures.ts); test/client-package.test.ts drives a real gateway
// with this module, so the two cannot drift apart unnoticed.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The bytes exactly as sent or received: a Buffer or Uint8Array, or a string (UTF-8). */
export type RawBody = string | Uint8Array;

export type SigningForm = 'body' | 'timestamp';

/** The window around a signed timestamp, both directions. Always enforced; it cannot be turned off. */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

/** Body form: hex HMAC-SHA256 of the raw body bytes. */
export function signBody(secret: string, rawBody: RawBody): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/** Timestamp form: hex HMAC-SHA256 over `<timestamp>\n<method>\n<path>\n<raw body>`. */
export function signTimestamped(secret: string, timestamp: string, method: string, path: string, rawBody: RawBody): string {
  return createHmac('sha256', secret).update(`${timestamp}\n${method}\n${path}\n`).update(rawBody).digest('hex');
}

const HEX = /^(?:[0-9a-fA-F]{2})+$/;

/** Constant-time comparison of two hex digests (a length mismatch returns at once: a digest's length is public). */
export function safeEqualHex(a: string, b: string): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  if (a.length !== b.length || !HEX.test(a) || !HEX.test(b)) return false;
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

const UNIX_SECONDS = /^\d{1,15}$/;

/** True when `timestamp` is unix seconds within 300 s of `now`, past or future. */
export function isTimestampFresh(timestamp: string, now: Date = new Date()): boolean {
  if (typeof timestamp !== 'string' || !UNIX_SECONDS.test(timestamp)) return false;
  return Math.abs(Math.floor(now.getTime() / 1000) - Number(timestamp)) <= TIMESTAMP_TOLERANCE_SECONDS;
}

export interface VerifyTimestampedInput {
  /** Your workspace's API secret. */
  secret: string;
  /** The `X-Timestamp` header. */
  timestamp: string | null | undefined;
  /** The `X-Signature` header. */
  signature: string | null | undefined;
  /** The path the signature covers: your webhook address's path, or `/api/{team}/gateway/<operation>` for an API answer. */
  path: string;
  /** The body exactly as received, before any JSON parsing. */
  rawBody: RawBody;
  /** The current time; defaults to now. */
  now?: Date;
}

/**
 * Checks a timestamp-form signature: the gateway's API answers and its webhooks carry one. False
 * for a missing header, a malformed or wrong signature, or a timestamp more than 5 minutes off.
 */
export function verifyTimestamped(input: VerifyTimestampedInput): boolean {
  const { secret, timestamp, signature, path, rawBody, now = new Date() } = input;
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  if (!isTimestampFresh(timestamp, now)) return false;
  return safeEqualHex(signTimestamped(secret, timestamp, 'POST', path, rawBody), signature);
}
