// For operations that ignore unknown keys: drop keys the GraphQL input type does not define,
// so GraphQL's own strictness applies only where the spec asks for it.
import { getNamedType, getNullableType, isInputObjectType, isListType, type GraphQLInputType } from 'graphql';

export function pruneUnknownKeys(value: unknown, type: GraphQLInputType): unknown {
  const inner = getNullableType(type);
  if (isListType(inner)) {
    return Array.isArray(value) ? value.map((v) => pruneUnknownKeys(v, inner.ofType)) : value;
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
