// Turns a request body's JSON Schema (printed from the domain's zod schema) into what the document
// shows: every object closed (`additionalProperties: false`: the gateway answers 422 for a key an
// operation does not know), every field described, the domain's lists of allowed values as
// enums, and one example body built from the same schema and the fields' example values.
import { getNamedType, getNullableType, isInputObjectType, isListType, isNonNullType, type GraphQLInputType } from 'graphql';
import { toSnake } from '../case.ts';
import { fieldDoc } from './fields.ts';
import type { JsonSchema } from './responses.ts';

type Node = JsonSchema & { properties?: Record<string, Node>; items?: Node; anyOf?: Node[]; required?: string[]; type?: string | string[] };

/**
 * Annotates `schema` in place (it is the document's own copy) and returns it. `inputType` is the
 * GraphQL input type the shim reads the body against (routes.ts): a key it takes that the domain's
 * schema does not list (a field of a shared input type the operation ignores) is added, so the
 * closed objects list exactly the keys the gateway takes. `pathFields`: top-level fields that
 * travel in the path, not the body.
 */
export function annotateRequest(operation: string, schema: JsonSchema, inputType: GraphQLInputType, pathFields: readonly string[] = []): JsonSchema {
  complete(schema as Node, inputType, pathFields);
  walk(operation, schema as Node, []);
  return schema;
}

const SCALAR_SCHEMAS: Record<string, Node> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  AmountInput: { type: ['string', 'number'] },
};

function complete(node: Node, type: GraphQLInputType, skip: readonly string[]): void {
  const inner = getNullableType(type);
  const shape = node.anyOf?.find((b) => b.type !== 'null') ?? node;
  if (isListType(inner)) {
    if (shape.items) complete(shape.items, inner.ofType, []);
    return;
  }
  if (!isInputObjectType(inner) || !shape.properties) return;
  for (const [name, field] of Object.entries(inner.getFields())) {
    const key = toSnake(name);
    if (skip.includes(key)) continue;
    const existing = shape.properties[key];
    if (existing) complete(existing, field.type, []);
    else shape.properties[key] = fromGraphQL(field.type);
  }
}

function fromGraphQL(type: GraphQLInputType): Node {
  const named = getNamedType(type);
  const inner = getNullableType(type);
  const base: Node = isListType(inner) ? { type: 'array', items: fromGraphQL(inner.ofType) } : { ...(SCALAR_SCHEMAS[named.name] ?? {}) };
  return isNonNullType(type) ? base : { anyOf: [base, { type: 'null' }] };
}

function walk(operation: string, node: Node, path: string[]): void {
  for (const branch of node.anyOf ?? []) walk(operation, branch, path);
  if (node.items) walk(operation, node.items, path);
  if (!node.properties) return;
  node.additionalProperties = false;
  for (const [name, child] of Object.entries(node.properties)) {
    const at = [...path, name];
    const doc = fieldDoc(operation, at);
    if (!doc) throw new Error(`openapi: ${operation} request field ${at.join('.')} has no entry in src/rest/openapi/fields.ts`);
    child.description = doc.description;
    if (doc.enum && doc.enumWhen) enumWhen(node, name, doc.enum, doc.enumWhen);
    else if (doc.enum) withEnum(child, doc.enum);
    walk(operation, child, at);
  }
}

/** `if <field> is <equals> then <name> is required and one of values` on the parent object. */
function enumWhen(parent: Node, name: string, values: readonly string[], when: { field: string; equals: string }): void {
  const rule = { if: { properties: { [when.field]: { const: when.equals } }, required: [when.field] }, then: { properties: { [name]: { enum: [...values] } }, required: [name] } };
  parent.allOf = [...((parent.allOf as unknown[] | undefined) ?? []), rule];
}

/** The allowed values on the field's string form; null stays allowed where the field may be null. */
function withEnum(node: Node, values: readonly string[]): void {
  const branch = node.anyOf?.find((b) => b.type === 'string') ?? node;
  const types = Array.isArray(branch.type) ? branch.type : branch.type ? [branch.type] : ['string', 'null'];
  if (!types.includes('string')) return;
  branch.type = types.length > 1 ? types.filter((t) => t === 'string' || t === 'null') : 'string';
  branch.enum = types.includes('null') ? [...values, null] : [...values];
}

/**
 * One request body for the operation: every required field, and the optional ones the field table
 * gives an example for; an array shows one item.
 */
export function exampleOf(operation: string, schema: JsonSchema): unknown {
  return exampleAt(operation, schema as Node, []);
}

function exampleAt(operation: string, node: Node, path: string[]): unknown {
  if (path.length && fieldDoc(operation, path)?.notInExample) return undefined;
  const shape = node.anyOf?.find((b) => b.type !== 'null') ?? node;
  if (shape.properties) {
    const out: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(shape.properties)) {
      const value = exampleAt(operation, child, [...path, name]);
      const empty = value === undefined || (typeof value === 'object' && value !== null && Object.keys(value).length === 0);
      const required = (shape.required ?? []).includes(name);
      if (required && value === undefined) throw new Error(`openapi: ${operation} request field ${[...path, name].join('.')} is required and needs an example in src/rest/openapi/fields.ts`);
      if (!empty || required) out[name] = value;
    }
    return out;
  }
  if (shape.items) {
    const item = exampleAt(operation, shape.items, path);
    return item === undefined ? undefined : [item];
  }
  return path.length ? fieldDoc(operation, path)?.example : undefined;
}
