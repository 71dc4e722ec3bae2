// Assertions name messages by their catalog code (src/domain/messages.ts), so a reworded message
// changes one line of the catalog, not the tests.
import { expect } from 'vitest';
import { message, type Language, type MessageCode } from '../../src/domain/messages.ts';

export type { Language, MessageCode };

/** The catalog's text for `code`: Turkish unless `lang` says otherwise. */
export function msg(code: MessageCode, params: Record<string, string | number> = {}, lang: Language = 'tr'): string {
  return message(code, lang, params);
}

interface ErrorResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response bodies loosely
  body: any;
}

export interface FieldErrorOptions {
  params?: Record<string, string | number>;
  lang?: Language;
  /** The body is exactly the error body with this one error in it. */
  only?: boolean;
}

/** A 422 with `code`'s message at `path` (its only message there), also given as the result message. */
export function expectFieldError(res: ErrorResponse, path: string, code: MessageCode, opts: FieldErrorOptions = {}): void {
  const text = msg(code, opts.params, opts.lang);
  expect(res.status).toBe(422);
  if (opts.only) {
    expect(res.body).toEqual({ result: { successful: false, message: text }, errors: { [path]: [text] } });
    return;
  }
  expect(res.body.result).toEqual({ successful: false, message: text });
  expect(res.body.errors[path]).toEqual([text]);
}

/** An error that concerns no single field: `status`, `code`'s message, and no field errors. */
export function expectPlainError(res: ErrorResponse, status: number, code: MessageCode, lang: Language = 'tr', params: Record<string, string | number> = {}): void {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ result: { successful: false, message: msg(code, params, lang) }, errors: {} });
}
