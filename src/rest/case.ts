// snake_case on the wire, camelCase inside: the contract's field names are mechanically convertible.
//
// Every key of every request and answer goes through one of these, and the keys are few (the
// contract's fields), so each conversion is remembered; a caller's made-up keys can only fill the
// memory up to MAX_REMEMBERED, after which it starts again.
const MAX_REMEMBERED = 2_000;

function remembered(convert: (key: string) => string): (key: string) => string {
  const known = new Map<string, string>();
  return (key) => {
    let converted = known.get(key);
    if (converted === undefined) {
      converted = convert(key);
      if (known.size >= MAX_REMEMBERED) known.clear();
      known.set(key, converted);
    }
    return converted;
  };
}

export const toCamel = remembered((key) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));
export const toSnake = remembered((key) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

export function deepKeys(value: unknown, convert: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => deepKeys(v, convert));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [convert(k), deepKeys(v, convert)]));
  }
  return value;
}
