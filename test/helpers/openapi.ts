// Checks REST traffic against the OpenAPI document the gateway serves (built from the same route
// table and schemas): every response's body against its status's schema, and the request body of
// every 200 against the operation's request schema. The signed test client runs it on every call,
// so the whole suite's traffic keeps the document honest.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { schema } from '../../src/graphql/schema.ts';
import { buildOpenApi } from '../../src/rest/openapi/document.ts';

export const openApiDocument = buildOpenApi(schema) as {
  paths: Record<string, { post: { responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }>; requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>;
  components: { schemas: Record<string, unknown> };
};

// Formats (date-time, uuid, email) are documentation here; patterns and types are checked.
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema({ $id: 'openapi', components: openApiDocument.components });
const compiled = new Map<string, ValidateFunction>();

function validatorFor(ref: string): ValidateFunction {
  let fn = compiled.get(ref);
  if (!fn) {
    fn = ajv.compile({ $ref: `openapi${ref}` });
    compiled.set(ref, fn);
  }
  return fn;
}

/** The document's path of a REST address (`/api/t/gateway/update-payment-link/<uuid>`), or null. */
export function documentPath(urlPath: string): string | null {
  const m = /^\/api\/[^/]+\/gateway\/([^/]+)(\/[^/]+)?$/.exec(urlPath);
  if (!m) return null;
  const key = `/api/{team}/gateway/${m[1]}${m[2] ? '/{token}' : ''}`;
  return openApiDocument.paths[key] ? key : null;
}

function check(what: string, ref: string, value: unknown): string | null {
  const fn = validatorFor(ref);
  if (fn(value)) return null;
  return `${what} does not match ${ref}: ${ajv.errorsText(fn.errors, { separator: '; ' })}`;
}

/**
 * Problems of one exchange with the document, or [] when it matches (or the address is not an
 * operation of the document, e.g. a test of unknown operations, or the body is not JSON).
 */
export function openApiProblems(urlPath: string, requestText: string | null, status: number, responseBody: unknown): string[] {
  const key = documentPath(urlPath);
  if (!key) return [];
  const op = openApiDocument.paths[key]!.post;
  const response = op.responses[String(status)];
  // A 500 is a bug, never part of the contract: the tests that can meet one assert on it themselves.
  if (!response) return status === 500 ? [] : [`${key}: status ${status} is not in the document`];
  const problems: string[] = [];
  const ref = response.content?.['application/json']?.schema.$ref;
  if (ref) {
    const p = check(`${key} ${status} body`, ref, responseBody);
    if (p) problems.push(p);
  }
  if (status === 200 && requestText !== null) {
    let request: unknown;
    try {
      request = JSON.parse(requestText);
    } catch {
      return [`${key}: a 200 answered a body that is not JSON`];
    }
    const p = check(`${key} request`, op.requestBody.content['application/json']!.schema.$ref, request);
    if (p) problems.push(p);
  }
  return problems;
}
