// Every answer other than 200 becomes one of these, by HTTP status. A provider decline is not an
// error: it is a 200 with `result.successful: false` (and `result.error_code`).

/** The gateway's error body: `errors` maps snake_case field paths (`order.items.0.unit_amount`) to messages. */
export interface ErrorBody {
  result: { successful: false; message: string };
  errors: Record<string, string[]>;
}

export type GatewayErrorKind =
  | 'validation'
  | 'authentication'
  | 'permission'
  | 'conflict'
  | 'rate_limited'
  | 'not_implemented'
  | 'unavailable'
  | 'response_signature'
  | 'unexpected';

/** Base of every error the client throws: `kind` says which, `status` is the HTTP status (null when none came). */
export class GatewayError extends Error {
  readonly kind: GatewayErrorKind;
  readonly status: number | null;
  /** Messages by field path; empty when no field is to blame. */
  readonly fields: Record<string, string[]>;
  /** The answer's body as parsed (the raw text when it was not JSON). */
  readonly body: unknown;

  constructor(kind: GatewayErrorKind, message: string, status: number | null, body: unknown, fields: Record<string, string[]> = {}) {
    super(message);
    this.name = new.target.name;
    this.kind = kind;
    this.status = status;
    this.body = body;
    this.fields = fields;
  }

  /** The field paths at fault, in the gateway's order (`transaction.amount`, `order.items.0.unit_amount`). */
  get paths(): string[] {
    return Object.keys(this.fields);
  }
}

/** 422: invalid input, an unknown or another workspace's token, or a state that forbids the operation. */
export class ValidationError extends GatewayError {
  declare readonly kind: 'validation';
}

/** 401: unknown API key, wrong signature, or a timestamp more than 5 minutes off. */
export class AuthenticationError extends GatewayError {
  declare readonly kind: 'authentication';
}

/** 403: the workspace is inactive, or its plan does not cover the operation. */
export class PermissionError extends GatewayError {
  declare readonly kind: 'permission';
}

/** 409: a request with the same Idempotency-Key is still being processed; retry later with the same key. */
export class ConflictError extends GatewayError {
  declare readonly kind: 'conflict';
}

/** 429: too many requests for this workspace. */
export class RateLimitError extends GatewayError {
  declare readonly kind: 'rate_limited';
}

/** 501: the operation is not available on this gateway or provider. */
export class NotImplementedError extends GatewayError {
  declare readonly kind: 'not_implemented';
}

/** 503: the gateway is saturated and did nothing; retry after `retryAfterSeconds`. */
export class UnavailableError extends GatewayError {
  declare readonly kind: 'unavailable';
  retryAfterSeconds: number | null = null;
}

/** The answer's X-Signature is missing, wrong, or its X-Timestamp is more than 5 minutes off: do not trust its body. */
export class ResponseSignatureError extends GatewayError {
  declare readonly kind: 'response_signature';
}

/** Any other status (400, 404, 413, 500…), or an answer that is not the gateway's JSON. */
export class UnexpectedResponseError extends GatewayError {
  declare readonly kind: 'unexpected';
}

function isErrorBody(body: unknown): body is ErrorBody {
  if (body === null || typeof body !== 'object') return false;
  const { result, errors } = body as Partial<ErrorBody>;
  return typeof result?.message === 'string' && errors !== null && typeof errors === 'object';
}

/** The error for a non-200 answer. */
export function errorFor(status: number, body: unknown, headers: Headers): GatewayError {
  const message = isErrorBody(body) ? body.result.message : `HTTP ${status}`;
  const fields = isErrorBody(body) ? body.errors : {};
  switch (status) {
    case 422:
      return new ValidationError('validation', message, status, body, fields);
    case 401:
      return new AuthenticationError('authentication', message, status, body, fields);
    case 403:
      return new PermissionError('permission', message, status, body, fields);
    case 409:
      return new ConflictError('conflict', message, status, body, fields);
    case 429:
      return new RateLimitError('rate_limited', message, status, body, fields);
    case 501:
      return new NotImplementedError('not_implemented', message, status, body, fields);
    case 503: {
      const err = new UnavailableError('unavailable', message, status, body, fields);
      const after = Number(headers.get('retry-after'));
      err.retryAfterSeconds = Number.isFinite(after) && after > 0 ? after : null;
      return err;
    }
    default:
      return new UnexpectedResponseError('unexpected', message, status, body, fields);
  }
}
