// A small HTTP client for EST's XML API: posts one CC5Request with a deadline and hands back the
// CC5Response. Anything that is not a CC5Response (no answer within the deadline, a refused or
// reset connection, an HTML error page, cut-off XML) means the outcome is unknown: the money may
// or may not have moved, so the client throws ProviderTimeoutError and the gateway asks the bank
// later (ORDERSTATUS). The exchange handed to the logger carries no card data and no credentials.
import { scrubCardData } from '../../domain/card-masking.ts';
import { checkTimeout, exchange, type Exchange } from '../exchange.ts';
import { buildCC5Request, parseCC5Response, type CC5Fields, type CC5Response } from './xml.ts';

export const EST_PROVIDER_ID = 'est';

export interface EstClientOptions {
  apiUrl: string;
  timeoutMs: number;
  onExchange?: (exchange: Exchange) => void;
  now?: () => number;
}

/** Fields never logged: the API password, the card's expiry and security code, the holder's name. */
const DROP = new Set(['Password', 'Expires', 'Cvv2Val', 'CARDHOLDERNAME']);

/**
 * A copy of a request or answer that is safe to log: the password, expiry, CVV and holder name go;
 * a card number keeps its last four digits; the bank's references and the 3D md token standing for
 * the card stay whole (domain/card-masking.ts).
 */
export const scrub = (value: unknown): unknown => scrubCardData(value, { drop: DROP });

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
      scrub,
      ...(onExchange ? { onExchange } : {}),
      ...(now ? { now } : {}),
    });
  }
}
