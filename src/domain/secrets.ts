// API secrets must be readable by the gateway (it signs with them), so they are encrypted at rest
// under a master key rather than hashed. Access tokens are only ever compared, so they are hashed.
import { createCipheriv, createDecipheriv, createHash, createHmac, createSecretKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { processCache } from './process-cache.ts';

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12; // GCM's native nonce size; random per encryption so a key never reuses one
const TAG_BYTES = 16;
const FORMAT_VERSION = 'v1'; // lets a future key rotation or algorithm change tell old rows apart

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const BASE64_KEY = /^[A-Za-z0-9+/]{43}=$/; // exactly 32 bytes, standard alphabet, padded

/** Master key from config: 64 hex chars or base64 of 32 bytes. The error never echoes the value. */
export function parseMasterKey(value: string): Buffer {
  const text = typeof value === 'string' ? value.trim() : '';
  if (HEX_KEY.test(text)) return Buffer.from(text, 'hex');
  if (BASE64_KEY.test(text)) return Buffer.from(text, 'base64');
  throw new Error('Master key must be 32 bytes given as 64 hex characters or 44 base64 characters');
}

/** A fresh master key as 64 hex characters. */
export function generateMasterKey(): string {
  return randomBytes(KEY_BYTES).toString('hex');
}

function assertKey(masterKey: Buffer): void {
  if (!Buffer.isBuffer(masterKey) || masterKey.length !== KEY_BYTES) {
    throw new Error(`Master key must be ${KEY_BYTES} bytes`);
  }
}

const keyObjects = new WeakMap<Buffer, KeyObject>();

/**
 * The key's bytes as a KeyObject, made once per Buffer. Given a Buffer, Node (24) asks every
 * createHmac, createCipheriv and hkdfSync whether it is a web CryptoKey by throwing and catching
 * a TypeError, stack trace included: about 10 µs a call instead of 2, more deep in a request.
 * A KeyObject skips the question. Keys used per request are held as KeyObjects for this.
 */
function secretKey(bytes: Buffer): KeyObject {
  let key = keyObjects.get(bytes);
  if (!key) keyObjects.set(bytes, (key = createSecretKey(bytes)));
  return key;
}

/** `v1:<iv b64>:<tag b64>:<ciphertext b64>`. */
export function encryptSecret(masterKey: Buffer, plaintext: string): string {
  assertKey(masterKey);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, secretKey(masterKey), iv, { authTagLength: TAG_BYTES });
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [FORMAT_VERSION, iv.toString('base64'), tag.toString('base64'), ciphertext.toString('base64')].join(':');
}

// Node's base64 decoder skips characters it does not know; round-tripping makes an edited field
// fail here instead of silently decoding to the original bytes.
function strictBase64(text: string): Buffer | null {
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}

/**
 * A stored secret this process cannot decrypt: another master key wrote it, or the value was
 * altered. Nothing a caller sent is wrong; the gateway answers 503 and the log tells the operator.
 */
export class UnreadableSecretError extends Error {
  override readonly name = 'UnreadableSecretError';
  /** `subject`: whose secret, e.g. "API credential <id>" (never any of the value). */
  constructor(readonly problem: 'malformed' | 'wrong_key', readonly subject?: string) {
    super(`${problem === 'malformed' ? 'Encrypted secret is malformed' : 'Encrypted secret failed authentication (wrong master key or tampered value)'}${subject ? `: ${subject}` : ''}`);
  }
}

/** True when `err`, or an error it wraps (a GraphQL error's original, a cause), is an UnreadableSecretError. */
export function unreadableSecretIn(err: unknown, depth = 0): UnreadableSecretError | null {
  if (err instanceof UnreadableSecretError) return err;
  const e = err as { originalError?: unknown; cause?: unknown } | null;
  if (!e || typeof e !== 'object' || depth > 5) return null;
  return unreadableSecretIn(e.originalError, depth + 1) ?? unreadableSecretIn(e.cause, depth + 1);
}

/** Reverses encryptSecret; throws UnreadableSecretError on a malformed value, a wrong master key or any tampering. */
export function decryptSecret(masterKey: Buffer, stored: string, subject?: string): string {
  assertKey(masterKey);
  const parts = typeof stored === 'string' ? stored.split(':') : [];
  const [version, ivText, tagText, dataText] = parts;
  const iv = parts.length === 4 && version === FORMAT_VERSION ? strictBase64(ivText) : null;
  const tag = iv ? strictBase64(tagText) : null;
  const data = tag ? strictBase64(dataText) : null;
  if (!iv || !tag || !data || iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
    throw new UnreadableSecretError('malformed', subject);
  }
  const decipher = createDecipheriv(ALGORITHM, secretKey(masterKey), iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  } catch {
    throw new UnreadableSecretError('wrong_key', subject);
  }
}

/** Public API key, `pk_` + 32 hex. */
export function generateApiKey(): string {
  return `pk_${randomBytes(16).toString('hex')}`;
}

/** API secret, `sk_` + 64 hex: 256 random bits, as strong as the HMAC-SHA256 it keys. */
export function generateApiSecret(): string {
  return `sk_${randomBytes(32).toString('hex')}`;
}

/** sha256 hex of a bearer token; tokens are stored only in this form and looked up by it. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Dashboard or support GraphQL access token: `<prefix>_` + 64 hex. Store hashToken() of it. */
export function generateAccessToken(prefix: 'dash' | 'support'): string {
  return `${prefix}_${randomBytes(32).toString('hex')}`;
}

/**
 * Decrypted API secrets by credential id, per master key (REST authentication and webhook
 * signing both need one per call). A credential's secret never changes: a rotation revokes it and
 * makes a new credential, so an entry is never stale, only unused.
 */
const secrets = processCache<string>();

export function cachedSecret(masterKey: Buffer, credentialId: string, secretEncrypted: string): string {
  let secret = secrets.get(masterKey, credentialId);
  if (secret === undefined) {
    secret = decryptSecret(masterKey, secretEncrypted, `API credential ${credentialId}`);
    secrets.set(masterKey, credentialId, secret);
  }
  return secret;
}

/**
 * Seals a short text for one purpose and one context (`aad`, e.g. the address it travels in):
 * AES-256-GCM under a key derived from the master key for `purpose`, as base64url. Used where data
 * must travel through the shopper's browser or an address and never be stored (a bank's 3D form's
 * card fields).
 */
export function sealFor(masterKey: Buffer, purpose: string, aad: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, purposeKey(masterKey, purpose), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
}

/** Reverses sealFor; null when the text was not sealed for this purpose and context, or was altered. */
export function unsealFor(masterKey: Buffer, purpose: string, aad: string, sealed: string): string | null {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.toString('base64url') !== sealed || bytes.length <= IV_BYTES + TAG_BYTES) return null;
  const decipher = createDecipheriv(ALGORITHM, purposeKey(masterKey, purpose), bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

const KEY_CHECK_TEXT = 'payment-gateway master key check';

/**
 * What a database records of the master key its secrets are encrypted with: an HMAC of a fixed
 * text under a key derived for this purpose, so it tells keys apart without revealing anything of them.
 */
export function masterKeyDigest(masterKey: Buffer): string {
  return createHmac('sha256', purposeKey(masterKey, 'master-key-check')).update(KEY_CHECK_TEXT).digest('hex');
}

/** A key for one purpose, derived from the master key (HKDF-SHA256): never the master key itself. */
export function purposeKey(masterKey: Buffer, purpose: string): Buffer {
  assertKey(masterKey);
  return Buffer.from(hkdfSync('sha256', secretKey(masterKey), Buffer.alloc(0), `payment-gateway:${purpose}`, KEY_BYTES));
}
