// A small HTTP client for EST's XML API: posts one CC5Request with a deadline and hands back the
// CC5Response. Anything that is not a CC5Response (no answer within the deadline, a refused or
// reset connection, an HTML error page, cut-off XML) means the outcome is unknown: the money may
// or may not have moved, so the client throws ProviderTimeoutError and the gateway asks the bank
// later (ORDERSTATUS). The exchange handed to the logger carries no card data and no credentials.
import { checkTimeout, exchange, type Exchange } from '../exchange.ts';
import { buildCC5Request, parseCC5Response, type CC5Fields, type CC5Response } from './xml.ts';

export const EST_PROVIDER_ID = 'est';

export interface EstClientOptions {
  apiUrl: string;
  timeoutMs: number;
  onExchange?: (exchange: Exchange) => void;
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
    checkTimeout('EST', options.timeoutMs);
    this.#options = options;
  }

  /** Sends one request; resolves with the bank's answer, or throws ProviderTimeoutError when none came. */
  call(operation: string, fields: CC5Fields): Promise<CC5Response> {
    const { apiUrl, timeoutMs, onExchange, now } = this.#options;
    return exchange({
      providerId: EST_PROVIDER_ID,
      operation,
      url: apiUrl,
      request: { method: 'POST', headers: { 'Content-Type': 'application/xml', Accept: 'application/xml' }, body: buildCC5Request(fields) },
      shown: fields,
      timeoutMs,
      read: parseCC5Response,
      scrub: (value) => scrub(value),
      ...(onExchange ? { onExchange } : {}),
      ...(now ? { now } : {}),
    });
  }
}
