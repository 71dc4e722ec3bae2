// A card's fingerprint for the card-testing guard: HMAC-SHA256 of the number under a key derived
// from the master key for the workspace alone, so the same card reads alike within one workspace
// and unlike across workspaces, and no row or log holds anything a number can be read back from
// (a plain hash of a 16-digit number with a known BIN is found by trying them all).
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { purposeKey } from '../secrets.ts';
import { processCache } from '../process-cache.ts';

// A KeyObject, not the Buffer: an HMAC under a Buffer key costs five times as much in Node 24 (secrets.ts, secretKey).
const keys = processCache<KeyObject>();

function workspaceKey(masterKey: Buffer, workspaceId: string): KeyObject {
  let key = keys.get(masterKey, workspaceId);
  if (!key) keys.set(masterKey, workspaceId, (key = createSecretKey(purposeKey(masterKey, `card-fingerprint:${workspaceId}`))));
  return key;
}

/** `card` is the typed number, or `saved:<reference>` for a saved card (its number is not known here). */
export function cardFingerprint(masterKey: Buffer, workspaceId: string, card: string): string {
  return createHmac('sha256', workspaceKey(masterKey, workspaceId)).update(card).digest('base64url');
}
