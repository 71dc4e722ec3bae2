// The one mapping from outcomes to HTTP: validation, state and unknown
// tokens 422; plan/workspace 403; rate limit 429; a provider decline stays 200.
import type { GraphQLError } from 'graphql';
import type { ErrorKind } from '../domain/errors.ts';
import { message, type Language, type MessageCode } from '../domain/messages.ts';
import { toSnake } from './case.ts';

export const STATUS_BY_KIND: Record<ErrorKind, number> = {
  validation: 422,
  not_found: 422,
  state: 422,
  forbidden: 403,
  rate_limited: 429,
  not_implemented: 501,
};

export interface FieldError {
  path: Array<string | number>;
  message: string;
  /** The path's keys are the request's own (snake_case already, or a key the merchant made up): shown as they are. */
  asSent?: boolean;
}

export interface ErrorBody {
  result: { successful: false; message: string };
  errors: Record<string, string[]>;
}

/** `{"result":{"successful":false,"message"},"errors":{"order.items.0.unit_amount":["…"]}}` */
export function errorBody(errors: FieldError[]): ErrorBody {
  // A Map, not an object literal: paths are built from request keys, which may be named
  // `constructor` or `__proto__`. Object.fromEntries defines own properties for every name.
  const byPath = new Map<string, string[]>();
  for (const e of errors) {
    if (e.path.length === 0) continue;
    const key = e.path.map((p) => (e.asSent ? String(p) : toSnake(String(p)))).join('.');
    byPath.set(key, [...(byPath.get(key) ?? []), e.message]);
  }
  return { result: { successful: false, message: errors[0]?.message ?? '' }, errors: Object.fromEntries(byPath) };
}

export function simpleError(code: MessageCode, lang: Language, params?: Record<string, string | number>): ErrorBody {
  return errorBody([{ path: [], message: message(code, lang, params) }]);
}

/**
 * GraphQL rejects variables of the wrong type or with unknown keys before any resolver runs;
 * those are the caller's input errors, so they become 422s with the field path.
 * graphql-js words them as: Variable "$input" got invalid value … at "input.card.bin"; <reason>
 */
export function variableErrors(errors: readonly GraphQLError[], lang: Language): FieldError[] | null {
  const fields: FieldError[] = [];
  for (const err of errors) {
    // graphql-js stops after 50 variable errors and adds this one; the 50 already name fields.
    if (err.message.startsWith('Too many errors processing variables')) continue;
    // The value is printed with spaces inside objects, so look for the ` at "input…"; ` part first
    // (strings in the value are JSON-escaped and cannot fake it), then the form without a path.
    const m =
      /^Variable "\$input" got invalid value .*? at "input\.?([^"]*)"; (.*)$/s.exec(err.message) ??
      /^Variable "\$input" got invalid value .*?; ()(.*)$/s.exec(err.message);
    if (!m) return null;
    const path = m[1] ? m[1].split('.').map((p) => p.replace(/\[(\d+)\]/g, '.$1')).join('.').split('.') : [];
    const unknown = /^Field "([^"]+)" is not defined by type/.exec(m[2] ?? '');
    if (unknown) fields.push({ path: [...path, unknown[1]], message: message('unknown_field', lang) });
    else if (/was not provided/.test(m[2] ?? '')) fields.push({ path, message: message('required', lang) });
    else fields.push({ path, message: message('invalid_type', lang) });
  }
  return fields;
}
