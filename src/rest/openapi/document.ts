// The OpenAPI 3.1 document of the REST API, printed at start-up from the route table (routes.ts),
// the domain's zod input schemas (inputs.ts) and the GraphQL documents' selections
// (responses.ts). Nothing in it is written by hand but the prose: the fields' descriptions and
// example values (fields.ts) and the resources' tags below.
import { z } from 'zod';
import type { GraphQLInputType, GraphQLSchema } from 'graphql';
import { prepareRoutes } from '../handler.ts';
import { routes, type Route } from '../routes.ts';
import { STATUS_BY_KIND } from '../errors.ts';
import { toSnake } from '../case.ts';
import { inputSchemas } from './inputs.ts';
import { annotateRequest, exampleOf } from './annotate.ts';
import { responseSchema, type JsonSchema } from './responses.ts';

/** `{"result":{"successful":false,"message"},"errors":{"<field.path>":["message"]}}` (docs/decisions.md, "Error body"). */
const ERROR_BODY: JsonSchema = {
  type: 'object',
  required: ['result', 'errors'],
  additionalProperties: false,
  properties: {
    result: {
      type: 'object',
      required: ['successful', 'message'],
      additionalProperties: false,
      properties: { successful: { const: false }, message: { type: 'string' } },
    },
    errors: {
      type: 'object',
      description: 'Messages by field path in snake_case, indexes as numbers (`order.items.0.unit_amount`); empty when no field is at fault.',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
  },
};

/** zod's JSON Schema of an input, with the wire's snake_case names. */
export function requestSchema(input: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return snakeProperties(json) as JsonSchema;
}

function snakeProperties(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(snakeProperties);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [toSnake(k), snakeProperties(v)]));
    } else if (key === 'required' && Array.isArray(value)) {
      out[key] = value.map((k) => (typeof k === 'string' ? toSnake(k) : k));
    } else {
      out[key] = snakeProperties(value);
    }
  }
  return out;
}

/** The resources operations are grouped by, in the reference's order. */
export const TAGS = [
  { name: 'Payments', description: 'Card payments (3D Secure and without), retrieval, refunds and cancellations.', operations: ['secure-payment', 'regular-payment', 'retrieve-payment', 'retrieve-payments', 'refund-payment', 'cancel-payment'] },
  { name: 'BIN', description: 'Card issuer, scheme and installment options by BIN.', operations: ['retrieve-bin'] },
  { name: 'Saved cards', description: "Cards stored for a customer, to pay without the card's details.", operations: ['save-card', 'saved-cards', 'default-saved-card', 'delete-saved-card'] },
  { name: 'Products', description: 'The catalog that orders and subscriptions refer to.', operations: ['save-product'] },
  { name: 'Orders', description: 'Orders paid on the hosted checkout page.', operations: ['order-payment', 'retrieve-orders'] },
  { name: 'Subscriptions', description: 'Recurring payments: first period on the hosted page, then renewals.', operations: ['subscription-payment', 'retrieve-subscription', 'retrieve-subscriptions', 'cancel-subscription'] },
  { name: 'Payment links', description: 'Hosted pages that take payments until closed; timestamp-signed.', operations: ['create-payment-link', 'update-payment-link', 'retrieve-payment-links', 'retrieve-link-payments'] },
] as const;

function tagOf(operation: string): string {
  const tag = TAGS.find((t) => (t.operations as readonly string[]).includes(operation));
  if (!tag) throw new Error(`openapi: operation ${operation} has no tag`);
  return tag.name;
}

/** The request body the document shows for each operation (also the README's, scripts/readme-request-bodies.ts). */
export function requestExamples(schema: GraphQLSchema): Map<string, unknown> {
  const inputTypes = restInputTypes(schema);
  const examples = new Map<string, unknown>();
  for (const [operation, type] of inputTypes) examples.set(operation, exampleOf(operation, requestBodySchema(operation, type)));
  return examples;
}

/** Each implemented operation's GraphQL input type: the keys the shim takes (handler.ts). */
function restInputTypes(schema: GraphQLSchema): Map<string, GraphQLInputType> {
  return new Map([...prepareRoutes(schema)].map(([operation, p]) => [operation, p.inputType]));
}

function requestBodySchema(operation: string, inputType: GraphQLInputType): JsonSchema {
  const input = inputSchemas[operation];
  if (!input) throw new Error(`openapi: no input schema for ${operation}`);
  return annotateRequest(operation, requestSchema(input), inputType, operation === 'update-payment-link' ? ['token'] : []);
}

const schemaName = (operation: string, suffix: string): string =>
  operation.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase()) + suffix;

const STATUS_TEXT: Record<number, string> = {
  400: 'The body is not a JSON object, or it nests deeper than the gateway reads.',
  401: 'Missing or unknown X-Api-Key, missing or wrong X-Signature, or an X-Timestamp outside 5 minutes.',
  403: 'The workspace is inactive or its plan does not cover the operation.',
  409: 'A request with the same Idempotency-Key is still being processed; retry later with the same key.',
  422: 'Invalid input, an unknown token or a state that forbids the operation; `errors` names the fields.',
  429: 'Too many requests for this workspace; try again later.',
  413: 'The body is larger than 1 MB (answered before the key is checked, so not signed).',
  501: 'The operation is not implemented by this gateway or its provider.',
  503: 'The database is saturated; retry after the Retry-After seconds.',
};

const signatureHeaders = {
  'X-Timestamp': { description: 'Unix seconds of the response signature.', schema: { type: 'string' } },
  'X-Signature': { description: 'hex HMAC-SHA256 over `<X-Timestamp>\\nPOST\\n<path>\\n<raw body>` with the API secret.', schema: { type: 'string' } },
};

function operationObject(route: Route, example: unknown): Record<string, unknown> {
  const errorRef = { $ref: '#/components/schemas/ErrorBody' };
  const errorResponse = (status: number) => ({
    description: STATUS_TEXT[status],
    headers: status === 401 || status === 413 ? {} : signatureHeaders,
    content: { 'application/json': { schema: errorRef } },
  });
  const statuses = [...new Set([400, 401, 413, ...Object.values(STATUS_BY_KIND), ...(route.idempotent ? [409] : []), 503])].sort();
  const parameters: unknown[] = [
    { name: 'team', in: 'path', required: true, description: "The workspace's slug.", schema: { type: 'string' } },
    { name: 'Accept-Language', in: 'header', description: 'Messages in Turkish (default) or English (`en`).', schema: { type: 'string' } },
  ];
  if (route.operation === 'update-payment-link') {
    parameters.push({ name: 'token', in: 'path', required: true, description: "The payment link's token.", schema: { type: 'string', format: 'uuid' } });
  }
  if (route.askedExtra) {
    parameters.push({ name: 'X-Include', in: 'header', description: `\`${route.askedExtra}\`: adds the \`${route.askedExtra}\` field, beyond the contract's answer.`, schema: { type: 'string', enum: [route.askedExtra] } });
  }
  if (route.idempotent) {
    parameters.push({ name: 'Idempotency-Key', in: 'header', description: 'Replays the first answer to a repeated request (1-255 characters).', schema: { type: 'string', minLength: 1, maxLength: 255 } });
  }
  return {
    operationId: route.operation,
    summary: route.operation,
    tags: [tagOf(route.operation)],
    description:
      route.signing === 'timestamp'
        ? 'Signed in the timestamp form (X-Timestamp required).'
        : 'Signed in the body form, or in the timestamp form when X-Timestamp is sent.',
    parameters,
    security: route.signing === 'timestamp' ? [{ apiKey: [], timestampSignature: [], timestamp: [] }] : [{ apiKey: [], bodySignature: [] }, { apiKey: [], timestampSignature: [], timestamp: [] }],
    requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName(route.operation, 'Request')}` }, example } } },
    responses: {
      200: {
        description: 'Done, or declined by the bank (`result.successful` false).',
        headers: signatureHeaders,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName(route.operation, 'Response')}` } } },
      },
      ...Object.fromEntries(statuses.map((s) => [s, errorResponse(s)])),
    },
  };
}

/** The REST contract's version (docs/api-contract.md); the gateway's own releases do not change it. */
export const API_VERSION = '1.0.0';

/** Builds the whole document; the route table and the domain schemas are its only sources. */
export function buildOpenApi(schema: GraphQLSchema): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, JsonSchema> = { ErrorBody: ERROR_BODY };
  const inputTypes = restInputTypes(schema);
  for (const route of routes.values()) {
    if (!route.document) continue;
    const request = requestBodySchema(route.operation, inputTypes.get(route.operation)!);
    schemas[schemaName(route.operation, 'Request')] = request;
    schemas[schemaName(route.operation, 'Response')] = responseSchema(route, schema);
    const path = `/api/{team}/gateway/${route.operation}${route.operation === 'update-payment-link' ? '/{token}' : ''}`;
    paths[path] = { post: operationObject(route, exampleOf(route.operation, request)) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payment gateway REST API',
      version: API_VERSION,
      description:
        'Every call is a signed POST. Amounts are decimal strings in major units. Every answer to a known API key carries X-Timestamp and X-Signature (timestamp form over the response body).',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    // Relative: the gateway that serves this document (GET /openapi.json) is the one to call.
    servers: [{ url: '/', description: 'The gateway serving this document' }],
    tags: TAGS.map(({ name, description }) => ({ name, description })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: "The workspace's API key." },
        bodySignature: { type: 'apiKey', in: 'header', name: 'X-Signature', description: 'Body form: hex HMAC-SHA256(api secret, raw request body bytes).' },
        timestampSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Signature',
          description: 'Timestamp form: hex HMAC-SHA256(api secret, `<X-Timestamp>\\nPOST\\n<path>\\n<raw body>`); required by the payment link operations.',
        },
        timestamp: { type: 'apiKey', in: 'header', name: 'X-Timestamp', description: 'Unix seconds; refused when more than 5 minutes from the gateway clock.' },
      },
    },
  };
}
