// Each REST operation's 200 body is the selection of its GraphQL document (routes.ts) over the
// schema's types, keys in snake_case, exactly what the shim sends: the JSON Schema is read off the
// same document and schema that produce the answer, so it cannot describe another body.
import {
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  parse,
} from 'graphql';
import type { Route } from '../routes.ts';
import { toSnake } from '../case.ts';

export type JsonSchema = Record<string, unknown>;

const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
  AmountInput: { type: 'string' },
  JSON: {},
};

function nullable(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: 'null' }] };
}

function typeSchema(type: GraphQLOutputType, selection: SelectionSetNode | undefined, schema: GraphQLSchema): JsonSchema {
  if (isNonNullType(type)) return innerSchema(type.ofType, selection, schema);
  return nullable(innerSchema(type, selection, schema));
}

function innerSchema(type: GraphQLOutputType, selection: SelectionSetNode | undefined, schema: GraphQLSchema): JsonSchema {
  if (isListType(type)) return { type: 'array', items: typeSchema(type.ofType, selection, schema) };
  const named = getNamedType(type);
  if (isScalarType(named)) return SCALARS[named.name] ?? {};
  if (isEnumType(named)) return { type: 'string', enum: named.getValues().map((v) => v.name) };
  if (isObjectType(named) && selection) return objectSchema(named.getFields(), selection, schema, new Set());
  throw new Error(`openapi: cannot describe GraphQL type ${String(type)}`);
}

/**
 * `optional`: keys that may be missing (presentOnlyWhen); `omittedWhenNull`: dotted paths below
 * this object that are missing instead of null, so when present they are never null.
 */
function objectSchema(
  fields: ReturnType<import('graphql').GraphQLObjectType['getFields']>,
  selection: SelectionSetNode,
  schema: GraphQLSchema,
  optional: Set<string>,
  skip: Set<string> = new Set(),
  omittedWhenNull: string[] = [],
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const sel of selection.selections) {
    if (sel.kind !== 'Field') throw new Error('openapi: route documents select plain fields only');
    const name = sel.alias?.value ?? sel.name.value;
    if (skip.has(name)) continue;
    const field = fields[sel.name.value];
    if (!field) throw new Error(`openapi: unknown field ${name}`);
    const key = toSnake(name);
    const below = omittedWhenNull.filter((p) => p.startsWith(`${name}.`)).map((p) => p.slice(name.length + 1));
    if (below.length > 0) {
      const inner = getNamedType(field.type);
      if (!isObjectType(inner) || !sel.selectionSet) throw new Error(`openapi: omitWhenNull path through a non-object field ${name}`);
      const object = objectSchema(inner.getFields(), sel.selectionSet, schema, new Set(), new Set(), below);
      properties[key] = isNonNullType(field.type) ? object : nullable(object);
    } else if (omittedWhenNull.includes(name)) {
      properties[key] = innerSchema(isNonNullType(field.type) ? field.type.ofType : field.type, sel.selectionSet, schema);
    } else {
      properties[key] = typeSchema(field.type, sel.selectionSet, schema);
    }
    if (field.description) properties[key] = { description: field.description, ...properties[key] };
    if (!optional.has(name) && !omittedWhenNull.includes(name)) required.push(key);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

/** The 200 body of `route`: its payload type minus `errors` and the presentOnlyWhen flags. */
export function responseSchema(route: Route, schema: GraphQLSchema): JsonSchema {
  const op = parse(route.document!).definitions[0] as OperationDefinitionNode;
  const root = op.operation === 'mutation' ? schema.getMutationType()! : schema.getQueryType()!;
  const top = op.selectionSet.selections[0]!;
  if (top.kind !== 'Field' || !top.selectionSet) throw new Error(`openapi: ${route.operation} selects no payload`);
  const payload = getNamedType(root.getFields()[top.name.value]!.type);
  if (!isObjectType(payload)) throw new Error(`openapi: ${route.operation} payload is not an object`);
  const shownWhen = route.presentOnlyWhen ?? [];
  const optional = new Set([...shownWhen.map(([field]) => field), ...(route.askedExtra ? [route.askedExtra] : [])]);
  const skip = new Set(['errors', ...shownWhen.map(([, flag]) => flag)]);
  return objectSchema(payload.getFields(), top.selectionSet, schema, optional, skip, route.omitWhenNull ?? []);
}
