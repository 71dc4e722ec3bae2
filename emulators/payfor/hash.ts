// The emulated bank's signatures, written here apart from the connector's (src/providers/payfor/
// hash.ts) so the two cannot share a mistake: both are checked against mewebstudio/pos's published
// vectors (tests/Unit/Crypt/PayForPosCryptTest.php and the signed answers of
// tests/Unit/DataMapper/ResponseDataMapper/PayForPosResponseDataMapperTest.php) in
// test/payfor/vectors.test.ts. Base64 of a digest of the values joined with nothing between them.
import { createHash } from 'node:crypto';

function base64Digest(algorithm: string, values: readonly string[]): string {
  const hash = createHash(algorithm);
  for (const value of values) hash.update(value, 'utf8');
  return hash.digest('base64');
}

/** What the gate expects in the form's `Hash`: SHA-1 of MbrId, OrderId, PurchAmount, OkUrl, FailUrl, TxnType, InstallmentCount, Rnd and the store key. */
export function expectedFormHash(form: (name: string) => string, storeKey: string): string {
  const names = ['MbrId', 'OrderId', 'PurchAmount', 'OkUrl', 'FailUrl', 'TxnType', 'InstallmentCount', 'Rnd'];
  return base64Digest('sha1', [...names.map(form), storeKey]);
}

export interface Signer {
  merchantId: string;
  storeKey: string;
  userCode: string;
}

/** The callback's `ResponseHash`: merchant, store key, OrderId, AuthCode, ProcReturnCode, 3DStatus, ResponseRnd, API user. */
export function signCallback(fields: Readonly<Record<string, string>>, signer: Signer, algorithm: 'sha1' | 'sha256'): string {
  const take = (name: string) => fields[name] ?? '';
  return base64Digest(algorithm, [signer.merchantId, signer.storeKey, take('OrderId'), take('AuthCode'), take('ProcReturnCode'), take('3DStatus'), take('ResponseRnd'), signer.userCode]);
}
