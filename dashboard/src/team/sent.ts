// What an audit entry's operation was sent, as lines a person reads: each value under its path
// (`input.product.amount`, `input.items[0].name`) instead of one long JSON text. The trail stores
// the variables already scrubbed of secrets and card data; this only lays them out.

export interface SentLine { path: string; value: string }

const nested = (v: unknown) => v !== null && typeof v === 'object';

/**
 * Every leaf of `value` with its path; an empty object or list is a leaf of its own. An object's
 * plain values come before its nested ones (a link's reference before its twelve items): the
 * stored order is PostgreSQL's (jsonb sorts keys by length), not the sender's anyway.
 */
export function sentLines(value: unknown, path = ''): SentLine[] {
  if (Array.isArray(value)) {
    if (!value.length) return [{ path, value: '[]' }];
    return value.flatMap((item, i) => sentLines(item, `${path}[${i}]`));
  }
  if (nested(value)) {
    const entries = Object.entries(value as object).sort(([, a], [, b]) => Number(nested(a)) - Number(nested(b)));
    if (!entries.length) return path ? [{ path, value: '{}' }] : [];
    return entries.flatMap(([key, item]) => sentLines(item, path ? `${path}.${key}` : key));
  }
  return [{ path, value: value === null || value === undefined ? 'null' : String(value) }];
}

/** The first lines as one short text for a list row, each by its last key ("name: Kupa · amount: 25.00 …"). */
export function sentPreview(lines: readonly SentLine[], max = 3): string {
  const shown = lines.slice(0, max).map((l) => `${l.path.split('.').pop()}: ${l.value}`).join(' · ');
  return lines.length > max ? `${shown} …` : shown;
}
