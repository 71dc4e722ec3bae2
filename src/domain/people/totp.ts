// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP): the codes authenticator apps
// show. Written out here rather than taken from a package because it is a few lines over
// node:crypto's HMAC; test/people/totp.test.ts checks it against the RFC's published vectors.
import { createHmac, randomBytes } from 'node:crypto';

export const STEP_SECONDS = 30;
export const DIGITS = 6;
/** Codes of the step before and after are accepted too: a phone's clock may be off by that much. */
export const DRIFT_STEPS = 1;

export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

/** The 30-second step `ms` falls in. */
export const stepAt = (ms: number, stepSeconds = STEP_SECONDS): number => Math.floor(ms / 1000 / stepSeconds);

/** HOTP (RFC 4226 section 5.3): the code for `counter`, `digits` long with its leading zeros. */
export function hotp(secret: Buffer, counter: number, digits = DIGITS, algorithm: TotpAlgorithm = 'sha1'): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** TOTP (RFC 6238): the code at time `ms`. */
export const totp = (secret: Buffer, ms: number, opts: { digits?: number; algorithm?: TotpAlgorithm } = {}): string =>
  hotp(secret, stepAt(ms), opts.digits ?? DIGITS, opts.algorithm ?? 'sha1');

/** The step whose code `code` is, within DRIFT_STEPS of `ms`; null when none matches. */
export function matchingStep(secret: Buffer, code: string, ms: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = stepAt(ms);
  for (let step = now - DRIFT_STEPS; step <= now + DRIFT_STEPS; step++) {
    if (hotp(secret, step) === code) return step;
  }
  return null;
}

/** A new 160-bit secret (RFC 4226 recommends 160 bits for HMAC-SHA1). */
export const newTotpSecret = (): Buffer => randomBytes(20);

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding: how authenticator apps take a secret typed or scanned. */
export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff; // at most 12 bits are pending
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const index = ALPHABET.indexOf(ch);
    if (index < 0) throw new Error('not base32');
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The otpauth:// address an authenticator app reads from the QR code (Key Uri Format). */
export function otpauthUri(secret: Buffer, issuer: string, account: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  return `otpauth://totp/${label}?secret=${base32Encode(secret)}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=${DIGITS}&period=${STEP_SECONDS}`;
}
