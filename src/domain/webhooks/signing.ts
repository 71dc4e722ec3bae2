// Each webhook address has its own signing secret, besides the contract's X-Signature (keyed with
// the workspace's API secret, which a key rotation changes for every address at once). It signs
// the same text as X-Signature into a second header, so a receiver can verify with a secret that
// only this address knows and that is rotated on its own:
//   X-Webhook-Signature: t=<X-Timestamp>,v1=<hex>[,v1=<hex under the previous secret>]
// During a rotation's overlap both the new and the previous secret sign (one v1 each), so a
// receiver still holding the previous secret keeps accepting notifications until it switches.
// Secrets are encrypted at rest (the gateway must sign with them), like API secrets.
import { randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret } from '../secrets.ts';
import { signTimestamped } from '../signatures.ts';
import { processCache } from '../process-cache.ts';

export const WEBHOOK_SIGNATURE_HEADER = 'X-Webhook-Signature';

/** `whsec_` + 64 hex: 256 random bits, as strong as the HMAC-SHA256 it keys. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`;
}

/** A new secret for a new address: the plaintext (shown once) and what is stored. */
export function newSigningSecret(masterKey: Buffer): { signingSecret: string; signingSecretEncrypted: string } {
  const signingSecret = generateWebhookSecret();
  return { signingSecret, signingSecretEncrypted: encryptSecret(masterKey, signingSecret) };
}

/** The stored secrets of an address, as read with a notification to send. */
export interface StoredSigningSecrets {
  /** The address's id, named in an error only. */
  id: string | null;
  signingSecretEncrypted: string | null;
  previousSecretEncrypted: string | null;
  previousSecretUntil: Date | null;
}

/**
 * Decrypted secrets by their encrypted text, per master key: every rotation writes a new text
 * (a fresh IV), so an entry is never stale, only unused.
 */
const decrypted = processCache<string>();

function readSecret(masterKey: Buffer, stored: string, addressId: string | null): string {
  let secret = decrypted.get(masterKey, stored);
  if (secret === undefined) {
    secret = decryptSecret(masterKey, stored, `webhook address ${addressId ?? '-'} signing secret`);
    decrypted.set(masterKey, stored, secret);
  }
  return secret;
}

/** The secrets that sign now: the current one, then the previous one while its overlap lasts. */
export function signingSecretsAt(masterKey: Buffer, row: StoredSigningSecrets, now: Date): string[] {
  if (!row.signingSecretEncrypted) return [];
  const secrets = [readSecret(masterKey, row.signingSecretEncrypted, row.id)];
  if (row.previousSecretEncrypted && row.previousSecretUntil && now.getTime() < row.previousSecretUntil.getTime()) {
    secrets.push(readSecret(masterKey, row.previousSecretEncrypted, row.id));
  }
  return secrets;
}

/** `t=<timestamp>,v1=<hex>…`: one v1 per secret, over X-Signature's text (timestamp, POST, path, raw body). */
export function signatureHeader(secrets: readonly string[], timestamp: string, path: string, body: string): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signTimestamped(secret, timestamp, 'POST', path, body)}`)].join(',');
}
