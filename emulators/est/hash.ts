import { createHash } from 'node:crypto';

/**
 * EST's `hashAlgorithm=ver3` signature (the 3D gate form, and every field the gate posts back):
 * the fields sorted by name in PHP's natural, case-insensitive order (ksort SORT_NATURAL |
 * SORT_FLAG_CASE), `hash`/`encoding`/`nationalidno` left out, the store key appended, each value
 * with `\` and `|` escaped by a backslash, joined by `|`, SHA-512, base64. Same algorithm as
 * mewebstudio/pos src/Crypt/EstV3PosCrypt.php (create3DHash). A missing value (null) counts as ''.
 */
export function estVer3Hash(fields: Record<string, string | null | undefined>, storeKey: string): string {
  const names = Object.keys(fields)
    .filter((name) => !EXCLUDED.has(name.toLowerCase()))
    .sort(naturalCaseCompare);
  const values = [...names.map((name) => fields[name] ?? ''), storeKey].map((value) => value.replaceAll('\\', '\\\\').replaceAll('|', '\\|'));
  return createHash('sha512').update(values.join('|'), 'utf8').digest('base64');
}

const EXCLUDED = new Set(['hash', 'encoding', 'nationalidno']);

/** PHP's strnatcasecmp: case-insensitive, runs of digits compared as numbers. */
export function naturalCaseCompare(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (isDigit(x[i]!) && isDigit(y[j]!)) {
      const runX = digitRun(x, i);
      const runY = digitRun(y, j);
      const byNumber = compareDigits(runX, runY);
      if (byNumber !== 0) return byNumber;
      i += runX.length;
      j += runY.length;
      continue;
    }
    if (x[i] !== y[j]) return x.charCodeAt(i) - y.charCodeAt(j);
    i++;
    j++;
  }
  return x.length - i - (y.length - j);
}

const isDigit = (c: string) => c >= '0' && c <= '9';

function digitRun(text: string, from: number): string {
  let end = from;
  while (end < text.length && isDigit(text[end]!)) end++;
  return text.slice(from, end);
}

function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}
