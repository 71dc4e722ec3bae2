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

// Plain loops: every request and answer body passes here, and the entries/fromEntries form cost
// three arrays per object.
export function deepKeys(value: unknown, convert: (key: string) => string): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => deepKeys(v, convert));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const name = convert(key);
    const converted = deepKeys((value as Record<string, unknown>)[key], convert);
    // A `__proto__` key stays a key, as fromEntries made it, and never sets the prototype.
    if (name === '__proto__') Object.defineProperty(out, name, { value: converted, enumerable: true, writable: true, configurable: true });
    else out[name] = converted;
  }
  return out;
}
