// QNB Finansbank PayFor's signatures, as mewebstudio/pos src/Crypt/PayForPosCrypt.php computes them
// (its vectors are checked in test/payfor/vectors.test.ts): Base64 of a digest of fields joined
// with nothing between them. The gate form's `Hash` is SHA-1 over the form and the store key
// (MerchantPass); the callback's `ResponseHash` is over the merchant id, the store key, the order,
// its outcome, the bank's `ResponseRnd` and the API user. mewebstudio checks the callback with
// SHA-1 only, but the bank's own answers of 2024 in its tests sign with SHA-256 (same fields, no
// `HashType`), so both digests are accepted, told apart by their length.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (algorithm: 'sha1' | 'sha256', text: string): string => createHash(algorithm).update(text, 'utf8').digest('base64');

/** The gate form's fields the `Hash` covers, in its order. */
export interface FormHashFields {
  MbrId: string;
  OrderId: string;
  PurchAmount: string;
  OkUrl: string;
  FailUrl: string;
  TxnType: string;
  InstallmentCount: string;
  Rnd: string;
}

export function formHash(f: FormHashFields, storeKey: string): string {
  return digest('sha1', [f.MbrId, f.OrderId, f.PurchAmount, f.OkUrl, f.FailUrl, f.TxnType, f.InstallmentCount, f.Rnd, storeKey].join(''));
}

/** Who the bank signs its answers for: the merchant, its API user and its store key. */
export interface SigningAccount {
  merchantId: string;
  userCode: string;
  storeKey: string;
}

/** The `ResponseHash` the bank computes for a callback. */
export function responseHash(account: SigningAccount, fields: Readonly<Record<string, string | undefined>>, algorithm: 'sha1' | 'sha256' = 'sha1'): string {
  const parts = [account.merchantId, account.storeKey, fields.OrderId, fields.AuthCode, fields.ProcReturnCode, fields['3DStatus'], fields.ResponseRnd, account.userCode];
  return digest(algorithm, parts.map((p) => p ?? '').join(''));
}

/** SHA-1 Base64 is 28 characters, SHA-256 Base64 is 44. */
const ALGORITHM_BY_LENGTH: Readonly<Record<number, 'sha1' | 'sha256'>> = { 28: 'sha1', 44: 'sha256' };

/** Whether the callback's `ResponseHash` is the bank's for these fields (compared in constant time). */
export function checkResponseHash(account: SigningAccount, fields: Readonly<Record<string, string | undefined>>): boolean {
  const given = fields.ResponseHash ?? '';
  const algorithm = ALGORITHM_BY_LENGTH[given.length];
  if (algorithm === undefined) return false;
  const expected = Buffer.from(responseHash(account, fields, algorithm));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
