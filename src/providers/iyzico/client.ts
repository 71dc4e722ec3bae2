// A small HTTP client for iyzico's JSON API. It signs each call (auth.ts), sends it with a
// deadline, and hands back iyzico's answer. An answer is a JSON object whose `status` is
// 'success' or 'failure' (iyzico reports refusals that way, whatever the HTTP status). Anything
// else means the outcome is unknown: no answer within the deadline, a refused or reset
// connection, or a body iyzico would never send (a proxy's HTML error page, cut-off JSON). For all
// of those the money may or may not have moved, so the client throws ProviderTimeoutError and the
// gateway asks iyzico later (payment/detail), exactly as for a timeout.
import { ProviderTimeoutError } from '../types.ts';
import { noAnswerError } from '../exchange.ts';
import { authorizationHeader, newRandomKey } from './auth.ts';
import { scrub } from './scrub.ts';
import type { AnswerBase, IyzicoPath } from './wire.ts';

export const IYZICO_PROVIDER_ID = 'iyzico';
export const DEFAULT_TIMEOUT_MS = 60_000;
/** The provider contract: every call answers or throws within 2 minutes. */
export const MAX_TIMEOUT_MS = 120_000;

/** GET carries its fields in the query string (reporting); POST and DELETE in a JSON body. */
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** One call as a logger may see it: bodies scrubbed, no headers, no credentials. */
export interface IyzicoExchange {
  operation: string;
  method: HttpMethod;
  path: IyzicoPath;
  request: unknown;
  /** 'answered': iyzico's JSON came back; 'no_answer': timeout or connection failure; 'unreadable': a body that is not iyzico's. */
  outcome: 'answered' | 'no_answer' | 'unreadable';
  httpStatus: number | null;
  response: unknown;
  durationMs: number;
}

export interface IyzicoClientOptions {
  baseUrl: string;
  apiKey: string;
  secretKey: string;
  timeoutMs?: number;
  onExchange?: (exchange: IyzicoExchange) => void;
  /** For tests: a fixed random key makes a request's signature reproducible. */
  randomKey?: () => string;
  now?: () => number;
}

/**
 * JSON.parse keeping every fractional or exponent number as its source text ("100.10" stays
 * "100.10"), so amounts never become floats; integers (ids, counts, flags) stay numbers.
 */
export function parseAnswer(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && context?.source !== undefined && /[.eE]/.test(context.source) ? context.source : value,
  );
}

function isAnswer(body: unknown): body is AnswerBase {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const status = (body as { status?: unknown }).status;
  return status === 'success' || status === 'failure';
}

export class IyzicoClient {
  readonly #options: IyzicoClientOptions;
  readonly #baseUrl: string;
  readonly #timeoutMs: number;

  constructor(options: IyzicoClientOptions) {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMEOUT_MS) {
      throw new RangeError(`iyzico timeout must be 1..${MAX_TIMEOUT_MS} ms`);
    }
    this.#options = options;
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Sends one signed call. Resolves with iyzico's answer (success or failure); throws
   * ProviderTimeoutError when no readable answer came. `operation` names the call in errors and logs.
   * A GET sends `body`'s fields as its query string and no body: it is signed over the path alone,
   * as iyzico's Java and PHP clients sign their reporting calls.
   */
  async call<A extends AnswerBase>(operation: string, method: HttpMethod, path: IyzicoPath, body: object): Promise<A> {
    const now = this.#options.now ?? Date.now;
    const started = now();
    const isGet = method === 'GET';
    const text = isGet ? '' : JSON.stringify(body);
    const query = isGet ? `?${new URLSearchParams(body as Record<string, string>).toString()}` : '';
    const randomKey = (this.#options.randomKey ?? newRandomKey)();
    const { apiKey, secretKey } = this.#options;
    const report = (outcome: IyzicoExchange['outcome'], httpStatus: number | null, response: unknown): void => {
      const { onExchange } = this.#options;
      if (onExchange === undefined) return;
      // A logger that fails must not change the outcome of a call whose money may have moved.
      try {
        onExchange({
          operation,
          method,
          path,
          request: scrub(body),
          outcome,
          httpStatus,
          response: response === null ? null : scrub(response),
          durationMs: now() - started,
        });
      } catch {
        // ignored on purpose (above)
      }
    };

    let status: number;
    let raw: string;
    try {
      const res = await fetch(`${this.#baseUrl}${path}${query}`, {
        method,
        headers: {
          Accept: 'application/json',
          'Content-Type': 'application/json',
          Authorization: authorizationHeader({ apiKey, secretKey, randomKey, uriPath: path, body: text }),
          'x-iyzi-rnd': randomKey,
        },
        ...(isGet ? {} : { body: text }),
        signal: AbortSignal.timeout(this.#timeoutMs),
        redirect: 'error',
      });
      status = res.status;
      raw = await res.text();
    } catch (err) {
      // Timeout, refused or reset connection, a body cut off mid-way: no answer reached us.
      report('no_answer', null, null);
      throw noAnswerError(err, IYZICO_PROVIDER_ID, operation);
    }

    let answer: unknown;
    try {
      answer = parseAnswer(raw);
    } catch {
      answer = undefined;
    }
    if (!isAnswer(answer)) {
      report('unreadable', status, { length: raw.length });
      throw new ProviderTimeoutError(IYZICO_PROVIDER_ID, operation);
    }
    report('answered', status, answer);
    return answer as A;
  }
}
