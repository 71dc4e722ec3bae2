// Bounds on a request body's shape, checked once after JSON parsing and before anything else
// reads it: hostile bodies (60,000 keys, megabyte strings, deep nesting) are refused in one
// bounded walk instead of reaching GraphQL coercion, error messages or logs.
import type { MessageCode } from '../domain/messages.ts';

export const BODY_LIMITS = {
  /** Deeper than any operation's input. */
  depth: 32,
  /** Keys in the whole body; the largest valid body (a 100-item link) has well under 2,000. */
  keys: 5_000,
  /** Characters of one key: the contract's longest name is far shorter. */
  keyLength: 64,
  /** Items of one array (order items, link items, predefined amounts). */
  arrayLength: 1_000,
  /** Characters of one string: every field's own rule is far lower (URLs 2,048). */
  stringLength: 10_000,
} as const;

export interface BodyProblem {
  status: 400 | 422;
  code: MessageCode;
  params: { max: number };
  /** The path of the offending value as sent (snake_case keys), for 422s. */
  path: Array<string | number>;
}

/** The first limit the body breaks, or null. Stops at the first problem; never copies values. */
export function bodyProblem(body: unknown): BodyProblem | null {
  let keys = 0;
  const walk = (value: unknown, path: Array<string | number>): BodyProblem | null => {
    if (typeof value === 'string') {
      return value.length > BODY_LIMITS.stringLength ? { status: 422, code: 'too_long', params: { max: BODY_LIMITS.stringLength }, path } : null;
    }
    if (value === null || typeof value !== 'object') return null;
    if (path.length >= BODY_LIMITS.depth) return { status: 400, code: 'body_too_deep', params: { max: BODY_LIMITS.depth }, path: [] };
    if (Array.isArray(value)) {
      if (value.length > BODY_LIMITS.arrayLength) return { status: 422, code: 'too_many_items', params: { max: BODY_LIMITS.arrayLength }, path };
      for (let i = 0; i < value.length; i++) {
        const found = walk(value[i], [...path, i]);
        if (found) return found;
      }
      return null;
    }
    for (const key of Object.keys(value)) {
      if (++keys > BODY_LIMITS.keys) return { status: 400, code: 'body_too_complex', params: { max: BODY_LIMITS.keys }, path: [] };
      if (key.length > BODY_LIMITS.keyLength) return { status: 400, code: 'key_too_long', params: { max: BODY_LIMITS.keyLength }, path: [] };
      const found = walk((value as Record<string, unknown>)[key], [...path, key]);
      if (found) return found;
    }
    return null;
  };
  return walk(body, []);
}
