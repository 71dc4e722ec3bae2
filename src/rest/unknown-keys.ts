// Keys a request body carries that its operation does not know (docs/decisions.md "Unknown keys").
// The body is walked as it came (snake_case keys) against the operation's GraphQL input type, so
// every path is the key the merchant sent. A key that is unknown where it stands but that the
// operation knows somewhere else in its body (`transaction.amount` for refund-payment, whose
// `amount` is at the top) is "misplaced": it is refused even when the workspace ignores unknown
// keys, because dropping it silently would change what the call does (a full refund).
import { getNullableType, isInputObjectType, isListType, type GraphQLInputType } from 'graphql';
import { toCamel, toSnake } from './case.ts';

export interface UnknownKey {
  /** Where the key stands in the body, as sent (array items by index; the key itself as shown). */
  path: Array<string | number>;
  /** The key as sent, but a run of digits that could be a card number masked (shownKey). */
  key: string;
  /** Where the operation knows a field of that name (snake_case, `*` for any array item); empty: nowhere. */
  knownAt: string[];
}

/** Enough to show a merchant what is wrong; a hostile body may carry thousands. */
const MAX_REPORTED = 50;

/** Every field name of an input type, anywhere below it, with the places it can stand. */
export type FieldPlaces = ReadonlyMap<string, readonly string[]>;

export function fieldPlaces(type: GraphQLInputType): FieldPlaces {
  const places = new Map<string, string[]>();
  const visit = (t: GraphQLInputType, prefix: string[], seen: ReadonlySet<string>) => {
    const inner = getNullableType(t);
    if (isListType(inner)) return visit(inner.ofType, [...prefix, '*'], seen);
    if (!isInputObjectType(inner) || seen.has(inner.name)) return;
    const below = new Set(seen).add(inner.name);
    for (const [name, field] of Object.entries(inner.getFields())) {
      const path = [...prefix, toSnake(name)];
      places.set(name, [...(places.get(name) ?? []), path.join('.')]);
      visit(field.type, path, below);
    }
  };
  visit(type, [], new Set());
  return places;
}

/** The body's unknown keys, depth first, at most MAX_REPORTED. */
export function findUnknownKeys(body: unknown, type: GraphQLInputType, places: FieldPlaces): UnknownKey[] {
  const found: UnknownKey[] = [];
  // One path, grown and shrunk on the way, copied only for a key found: every request walks here.
  const path: Array<string | number> = [];
  const walk = (value: unknown, t: GraphQLInputType) => {
    if (found.length >= MAX_REPORTED) return;
    const inner = getNullableType(t);
    if (isListType(inner)) {
      // GraphQL takes a lone value where a list is expected as a list of one.
      if (!Array.isArray(value)) return walk(value, inner.ofType);
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        walk(value[i], inner.ofType);
        path.pop();
      }
      return;
    }
    if (!isInputObjectType(inner) || value === null || typeof value !== 'object' || Array.isArray(value)) return;
    const fields = inner.getFields();
    for (const key of Object.keys(value)) {
      const name = toCamel(key);
      const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
      if (field) {
        path.push(key);
        walk((value as Record<string, unknown>)[key], field.type);
        path.pop();
      } else if (found.length < MAX_REPORTED) found.push({ path: [...path, shownKey(key)], key: shownKey(key), knownAt: [...(places.get(name) ?? [])] });
    }
  };
  walk(body, type);
  return found;
}

/**
 * The key as the answer shows it. A card number sent as a key (a client that built its JSON
 * wrongly) must not come back in the answer, which an Idempotency-Key stores: 12 or more digits
 * in a row keep only their last four.
 */
export function shownKey(key: string): string {
  return key.replace(/\d{12,}/g, (digits) => '*'.repeat(digits.length - 4) + digits.slice(-4));
}
