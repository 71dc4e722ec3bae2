// A small HTTP client for EST's XML API: posts one CC5Request with a deadline and hands back the
// CC5Response. Anything that is not a CC5Response (no answer within the deadline, a refused or
// reset connection, an HTML error page, cut-off XML) means the outcome is unknown: the money may
// or may not have moved, so the client throws ProviderTimeoutError and the gateway asks the bank
// later (ORDERSTATUS). The exchange handed to the logger carries no card data and no credentials.
import { ProviderTimeoutError } from '../types.ts';
import { buildCC5Request, parseCC5Response, type CC5Fields, type CC5Response } from './xml.ts';

export const EST_PROVIDER_ID = 'est';
/** The provider contract: every call answers or throws within 2 minutes. */
export const MAX_TIMEOUT_MS = 120_000;

/** One call as a logger may see it. */
export interface EstExchange {
  operation: string;
  request: Record<string, unknown>;
  /** 'answered': a CC5Response came back; 'no_answer': timeout or connection failure; 'unreadable': a body that is not one. */
  outcome: 'answered' | 'no_answer' | 'unreadable';
  httpStatus: number | null;
  response: unknown;
  durationMs: number;
}

export interface EstClientOptions {
  apiUrl: string;
  timeoutMs: number;
  onExchange?: (exchange: EstExchange) => void;
  now?: () => number;
}

const REDACTED = '[redacted]';
/** Fields never logged: the API password, the card's expiry and security code, the holder's name. */
const DROP = new Set(['Password', 'Expires', 'Cvv2Val', 'CARDHOLDERNAME']);
const DIGIT_RUN = /\d{12,19}/g;

function maskNumber(value: string): string {
  return value.length > 4 ? `${'*'.repeat(value.length - 4)}${value.slice(-4)}` : REDACTED;
}

/**
 * A copy of a request or answer that is safe to log: the password, expiry, CVV and holder name go; the card
 * number (Number: a PAN, or the 3D md token standing for it) keeps its last four characters; any
 * other run of 12-19 digits is masked wherever it hides.
 */
export function scrub(value: unknown, key = ''): unknown {
  if (typeof value === 'string') {
    if (DROP.has(key)) return REDACTED;
    if (key === 'Number') return maskNumber(value);
    return value.replace(DIGIT_RUN, maskNumber);
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, k)]));
  }
  return value;
}

export class EstClient {
  readonly #options: EstClientOptions;

  constructor(options: EstClientOptions) {
    if (!Number.isInteger(options.timeoutMs) || options.timeoutMs <= 0 || options.timeoutMs > MAX_TIMEOUT_MS) {
      throw new RangeError(`EST timeout must be 1..${MAX_TIMEOUT_MS} ms`);
    }
    this.#options = options;
  }

  /** Sends one request; resolves with the bank's answer, or throws ProviderTimeoutError when none came. */
  async call(operation: string, fields: CC5Fields): Promise<CC5Response> {
    const now = this.#options.now ?? Date.now;
    const started = now();
    const report = (outcome: EstExchange['outcome'], httpStatus: number | null, response: unknown): void => {
      const { onExchange } = this.#options;
      if (onExchange === undefined) return;
      // A logger that fails must not change the outcome of a call whose money may have moved.
      try {
        onExchange({ operation, request: scrub(fields) as Record<string, unknown>, outcome, httpStatus, response: scrub(response), durationMs: now() - started });
      } catch {
        // ignored on purpose (above)
      }
    };

    let status: number;
    let raw: string;
    try {
      const res = await fetch(this.#options.apiUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/xml', Accept: 'application/xml' },
        body: buildCC5Request(fields),
        signal: AbortSignal.timeout(this.#options.timeoutMs),
        redirect: 'error',
      });
      status = res.status;
      raw = await res.text();
    } catch {
      report('no_answer', null, null);
      throw new ProviderTimeoutError(EST_PROVIDER_ID, operation);
    }
    const answer = parseCC5Response(raw);
    if (answer === null) {
      report('unreadable', status, { length: raw.length });
      throw new ProviderTimeoutError(EST_PROVIDER_ID, operation);
    }
    report('answered', status, answer);
    return answer;
  }
}
