// For a workspace that ignores unknown keys: drop keys the GraphQL input type does not define,
// after unknown-keys.ts has refused the misplaced ones. A lone value where a list is expected is
// GraphQL's list of one, so it is pruned as an item.
import { getNamedType, getNullableType, isInputObjectType, isListType, type GraphQLInputType } from 'graphql';

export function pruneUnknownKeys(value: unknown, type: GraphQLInputType): unknown {
  const inner = getNullableType(type);
  if (isListType(inner)) {
    return Array.isArray(value) ? value.map((v) => pruneUnknownKeys(v, inner.ofType)) : pruneUnknownKeys(value, inner.ofType);
  }
  if (isInputObjectType(inner) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const fields = inner.getFields();
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => Object.hasOwn(fields, key))
        .map(([key, v]) => [key, pruneUnknownKeys(v, fields[key]!.type)]),
    );
  }
  return value;
}

export { getNamedType };
