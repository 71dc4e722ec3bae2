// EST's "ver3" hash, as Payten specifies it and mewebstudio/pos implements it
// (src/Crypt/EstV3PosCrypt.php): every form field but hash/encoding (and Ziraat's nationalidno),
// sorted by name the way PHP's ksort(SORT_NATURAL | SORT_FLAG_CASE) sorts, the values with "\"
// and "|" escaped, joined by "|", the store key appended last, SHA-512, base64. The same
// computation signs our 3D form and checks the bank's callback (over every field it posted).
// Older accounts answer with the "ver1" scheme instead: HASHPARAMS names the signed fields
// ("clientid:oid:mdStatus:cavv:eci:md:rnd:"), HASH = base64(SHA-1(their values + store key))
// (EstPosCrypt.php).
import { createHash, timingSafeEqual } from 'node:crypto';

/** Fields never part of the ver3 hash (compared without case). */
const UNHASHED = new Set(['hash', 'encoding', 'nationalidno']);

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/**
 * PHP's strnatcasecmp for the ASCII names forms use: letters compared upper-cased (as PHP's
 * strnatcmp_ex folds case with toupper, so "_" sorts after letters), runs of digits by value.
 */
export function naturalCaseCompare(a: string, b: string): number {
  const x = a.toUpperCase();
  const y = b.toUpperCase();
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (isDigit(x[i]) && isDigit(y[j])) {
      let endI = i;
      let endJ = j;
      while (isDigit(x[endI])) endI++;
      while (isDigit(y[endJ])) endJ++;
      const left = BigInt(x.slice(i, endI));
      const right = BigInt(y.slice(j, endJ));
      if (left !== right) return left < right ? -1 : 1;
      i = endI;
      j = endJ;
      continue;
    }
    if (x[i] !== y[j]) return x.charCodeAt(i) < y.charCodeAt(j) ? -1 : 1;
    i++;
    j++;
  }
  return x.length - i - (y.length - j);
}

function escape(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\|/g, '\\|');
}

/** The ver3 hash of a form (ours, or the one the bank posted back) with the store key. */
export function ver3Hash(fields: Readonly<Record<string, string>>, storeKey: string): string {
  const names = Object.keys(fields)
    .filter((name) => !UNHASHED.has(name.toLowerCase()))
    .sort(naturalCaseCompare);
  const plain = [...names.map((name) => fields[name] ?? ''), storeKey].map(escape).join('|');
  return createHash('sha512').update(plain, 'utf8').digest('base64');
}

/**
 * The ver1 hash of an older callback: the values of the fields HASHPARAMS names, in its order, then
 * the store key; null when HASHPARAMS is missing.
 */
export function ver1Hash(fields: Readonly<Record<string, string>>, storeKey: string): string | null {
  const params = fields.HASHPARAMS;
  if (params === undefined || params === '') return null;
  const plain = params
    .split(':')
    .map((name) => (name === '' ? '' : (fields[name] ?? '')))
    .join('');
  return createHash('sha1').update(plain + storeKey, 'utf8').digest('base64');
}

/** Constant-time comparison of two base64 hashes. */
export function sameHash(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
