// InterPOS's hashes as the emulated bank computes them, written apart from the connector's on
// purpose (both are checked against mewebstudio/pos's InterPosCryptTest vectors in
// test/interpos/crypt.test.ts, so neither can agree with the other on a mistake): base64 SHA-1.
import { createHash } from 'node:crypto';

const sha1 = (text: string): string => createHash('sha1').update(text, 'utf8').digest('base64');

/** The gate form's Hash: ShopCode, OrderId, PurchAmount, OkUrl, FailUrl, TxnType, InstallmentCount, Rnd, then the store key. */
export function gateHash(form: (name: string) => string, storeKey: string): string {
  return sha1(['ShopCode', 'OrderId', 'PurchAmount', 'OkUrl', 'FailUrl', 'TxnType', 'InstallmentCount', 'Rnd'].map(form).join('') + storeKey);
}

/** The callback's HASHPARAMS, in InterPOS's order (the vectors' own list). */
export const HASH_PARAMS = 'Version:PurchAmount:Exponent:Currency:OkUrl:FailUrl:MD:OrderId:ProcReturnCode:Response:mdStatus:';

/** HASHPARAMSVAL and HASH for a callback's fields. */
export function signCallback(fields: Record<string, string>, storeKey: string): { HASHPARAMSVAL: string; HASH: string } {
  const value = (fields.HASHPARAMS ?? '')
    .split(':')
    .filter((name) => name !== '')
    .map((name) => fields[name] ?? '')
    .join('');
  return { HASHPARAMSVAL: value, HASH: sha1(value + storeKey) };
}
