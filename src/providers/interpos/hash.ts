// InterPOS's crypt, as mewebstudio/pos src/Crypt/InterPosCrypt.php computes it (checked against its
// tests/Unit/Crypt/InterPosCryptTest.php vectors in test/interpos/crypt.test.ts). Both hashes are
// base64 SHA-1 of concatenated values followed by the store key ("MerchantPass"): the 3D form's
// `Hash` over a fixed list of its fields, the callback's `HASH` over the fields its own
// `HASHPARAMS` names (joined by ':', a trailing ':' naming nothing).
import { createHash, timingSafeEqual } from 'node:crypto';

const sha1Base64 = (text: string): string => createHash('sha1').update(text, 'utf8').digest('base64');

/** The 3D form fields the `Hash` covers, in InterPOS's order. */
export const FORM_HASH_FIELDS = ['ShopCode', 'OrderId', 'PurchAmount', 'OkUrl', 'FailUrl', 'TxnType', 'InstallmentCount', 'Rnd'] as const;

export type FormHashFields = Record<(typeof FORM_HASH_FIELDS)[number], string>;

/** The 3D gate form's `Hash`. */
export function formHash(fields: FormHashFields, storeKey: string): string {
  return sha1Base64(FORM_HASH_FIELDS.map((name) => fields[name]).join('') + storeKey);
}

/** The names the callback's HASHPARAMS lists (empty names dropped). */
export function signedNames(fields: Record<string, string>): string[] {
  return (fields.HASHPARAMS ?? '').split(':').filter((name) => name !== '');
}

/** The callback's `HASH` for its fields: the values HASHPARAMS names, then the store key. */
export function callbackHash(fields: Record<string, string>, storeKey: string): string {
  return sha1Base64(signedNames(fields).map((name) => fields[name] ?? '').join('') + storeKey);
}

/** Whether the callback's HASH checks with the store key (compared in constant time). */
export function checkCallbackHash(fields: Record<string, string>, storeKey: string): boolean {
  const given = Buffer.from(fields.HASH ?? '', 'utf8');
  const expected = Buffer.from(callbackHash(fields, storeKey), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
