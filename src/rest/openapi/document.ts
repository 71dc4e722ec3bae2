// The OpenAPI 3.1 document of the REST API, printed at start-up from the route table (routes.ts),
// the domain's zod input schemas (inputs.ts) and the GraphQL documents' selections
// (responses.ts). Nothing in it is written by hand but the prose.
import { z } from 'zod';
import type { GraphQLSchema } from 'graphql';
import { routes, type Route } from '../routes.ts';
import { STATUS_BY_KIND } from '../errors.ts';
import { toSnake } from '../case.ts';
import { inputSchemas } from './inputs.ts';
import { responseSchema, type JsonSchema } from './responses.ts';

/** `{"result":{"successful":false,"message"},"errors":{"<field.path>":["message"]}}` (DESIGN.md). */
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

function operationObject(route: Route): Record<string, unknown> {
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
  if (route.idempotent) {
    parameters.push({ name: 'Idempotency-Key', in: 'header', description: 'Replays the first answer to a repeated request (1-255 characters).', schema: { type: 'string', minLength: 1, maxLength: 255 } });
  }
  return {
    operationId: route.operation,
    summary: route.operation,
    description:
      route.signing === 'timestamp'
        ? 'Signed in the timestamp form (X-Timestamp required).'
        : 'Signed in the body form, or in the timestamp form when X-Timestamp is sent.',
    parameters,
    security: route.signing === 'timestamp' ? [{ apiKey: [], timestampSignature: [], timestamp: [] }] : [{ apiKey: [], bodySignature: [] }, { apiKey: [], timestampSignature: [], timestamp: [] }],
    requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName(route.operation, 'Request')}` } } } },
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

/** The REST contract's version (spec.md); the gateway's own releases do not change it. */
export const API_VERSION = '1.0.0';

/** Builds the whole document; the route table and the domain schemas are its only sources. */
export function buildOpenApi(schema: GraphQLSchema): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, JsonSchema> = { ErrorBody: ERROR_BODY };
  for (const route of routes.values()) {
    if (!route.document) continue;
    const input = inputSchemas[route.operation];
    if (!input) throw new Error(`openapi: no input schema for ${route.operation}`);
    schemas[schemaName(route.operation, 'Request')] = requestSchema(input);
    schemas[schemaName(route.operation, 'Response')] = responseSchema(route, schema);
    const path = `/api/{team}/gateway/${route.operation}${route.operation === 'update-payment-link' ? '/{token}' : ''}`;
    paths[path] = { post: operationObject(route) };
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
