// The merchant's side of the REST API: every operation of the OpenAPI document, typed from it,
// signed in either form, with each answer's signature checked before its body is trusted.
import { randomUUID } from 'node:crypto';
import type { operations } from './generated/openapi.js';
import { operationTable } from './generated/openapi.js';
import { signBody, signTimestamped, verifyTimestamped, type SigningForm } from './signatures.js';
import { errorFor, ResponseSignatureError, UnexpectedResponseError } from './errors.js';

/** An operation's name as in the contract and the path: `regular-payment`, `retrieve-bin`, … */
export type OperationId = keyof operations & keyof typeof operationTable;

type JsonContent<T> = T extends { content: { 'application/json': infer B } } ? B : never;

/** The request body of `O` (snake_case, as on the wire). */
export type RequestBody<O extends OperationId> = JsonContent<NonNullable<operations[O]['requestBody']>>;

/** The 200 body of `O`: processed; `result.successful` says how it went. */
export type ResponseBody<O extends OperationId> = JsonContent<operations[O]['responses'][200]>;

/** Operations whose token is part of the path (`update-payment-link/{token}`). */
type TokenInPath = { [K in OperationId]: (typeof operationTable)[K]['tokenInPath'] extends true ? K : never }[OperationId];

export interface CallOptions {
  /** Overrides the client's form; ignored by operations that accept only the timestamp form. */
  signing?: SigningForm;
  /** Sent as Idempotency-Key (payment operations): a retry with the same key gets the first answer back. */
  idempotencyKey?: string;
  /** `tr` (the gateway's default) or `en`, for `message`s. */
  language?: string;
  signal?: AbortSignal;
}

export type OperationOptions<O extends OperationId> = O extends TokenInPath ? CallOptions & { token: string } : CallOptions;

export interface GatewayClientOptions {
  /** The gateway's address, e.g. `https://gateway.example` (no trailing path). */
  baseUrl: string;
  /** Your workspace's slug (`{team}` in every path). */
  team: string;
  apiKey: string;
  apiSecret: string;
  /** `body` (default) signs the raw body; `timestamp` signs `<ts>\nPOST\n<path>\n<body>`. */
  signing?: SigningForm;
  /** Default language of messages: `tr` or `en`. */
  language?: string;
  /**
   * Check the X-Signature of every answer (default true): a 200 must be signed; an error answer
   * is checked when signed. Answers the gateway does not sign (404, 413, any 401, which means the
   * secret is not the workspace's) become errors without the check.
   */
  verifyResponses?: boolean;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** The clock used for timestamps and the 5-minute window (default: now). */
  now?: () => Date;
}

type KebabToCamel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<KebabToCamel<T>>}` : S;

/** One method per operation, named after it: `regularPayment`, `retrieveBin`, `updatePaymentLink`, … */
export type OperationMethods = {
  [O in OperationId as KebabToCamel<O>]: O extends TokenInPath
    ? (body: RequestBody<O>, options: OperationOptions<O>) => Promise<ResponseBody<O>>
    : (body: RequestBody<O>, options?: OperationOptions<O>) => Promise<ResponseBody<O>>;
};

export interface GatewayClient extends OperationMethods {
  /**
   * Sends `operation` and returns its 200 body. Throws a GatewayError subclass for any other
   * status (ValidationError for a 422, with `fields` by path) and ResponseSignatureError for an
   * answer whose signature does not hold.
   */
  call<O extends OperationId>(operation: O, body: RequestBody<O>, ...options: O extends TokenInPath ? [OperationOptions<O>] : [OperationOptions<O>?]): Promise<ResponseBody<O>>;
}

/** The request path the signatures cover: `/api/{team}/gateway/<operation>[/<token>]`. */
function pathOf(team: string, operation: OperationId, token: string | undefined): string {
  let path = operationTable[operation].path.replace('{team}', encodeURIComponent(team));
  if (operationTable[operation].tokenInPath) {
    if (!token) throw new TypeError(`${operation} needs options.token`);
    path = path.replace('{token}', encodeURIComponent(token));
  }
  return path;
}

const camel = (operation: string): string => operation.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());
  const verify = options.verifyResponses ?? true;

  async function call<O extends OperationId>(operation: O, body: RequestBody<O>, callOptions: CallOptions & { token?: string } = {}): Promise<ResponseBody<O>> {
    const route = operationTable[operation];
    if (!route) throw new TypeError(`unknown operation ${String(operation)}`);
    const path = pathOf(options.team, operation, callOptions.token);
    const raw = JSON.stringify(body); // the signature covers exactly these bytes
    const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Api-Key': options.apiKey };
    const form = route.timestampOnly ? 'timestamp' : (callOptions.signing ?? options.signing ?? 'body');
    if (form === 'timestamp') {
      const timestamp = String(Math.floor(now().getTime() / 1000));
      headers['X-Timestamp'] = timestamp;
      headers['X-Signature'] = signTimestamped(options.apiSecret, timestamp, 'POST', path, raw);
    } else {
      headers['X-Signature'] = signBody(options.apiSecret, raw);
    }
    const language = callOptions.language ?? options.language;
    if (language) headers['Accept-Language'] = language;
    if (callOptions.idempotencyKey !== undefined) headers['Idempotency-Key'] = callOptions.idempotencyKey;
    // retrieve-payment's record beyond the contract's fields (`payment`) comes only when asked for.
    if (operation === 'retrieve-payment') headers['X-Include'] = 'payment';

    const res = await doFetch(baseUrl + path, { method: 'POST', headers, body: raw, signal: callOptions.signal });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: kept as text for the error below
    }
    const signature = res.headers.get('x-signature');
    // Answers before the key is known (404, 413, an unknown key's 401) are never signed; they are
    // errors anyway. A 401 to a known key is signed with the secret this client does not have.
    if (verify && (res.status === 200 || (signature !== null && res.status !== 401))) {
      const ok = verifyTimestamped({ secret: options.apiSecret, timestamp: res.headers.get('x-timestamp'), signature, path, rawBody: text, now: now() });
      if (!ok) throw new ResponseSignatureError('response_signature', `${operation}: the answer's signature does not hold`, res.status, parsed);
    }
    if (res.status !== 200) throw errorFor(res.status, parsed, res.headers);
    if (parsed === null || typeof parsed !== 'object') throw new UnexpectedResponseError('unexpected', `${operation}: the answer is not JSON`, res.status, parsed);
    return parsed as ResponseBody<O>;
  }

  const client = { call } as unknown as GatewayClient;
  for (const operation of Object.keys(operationTable) as OperationId[]) {
    (client as unknown as Record<string, unknown>)[camel(operation)] = (body: never, opts?: CallOptions & { token?: string }) => call(operation, body, opts);
  }
  return client;
}

/** A fresh Idempotency-Key (a UUID); keep it with your order to retry the same payment safely. */
export function newIdempotencyKey(): string {
  return randomUUID();
}
