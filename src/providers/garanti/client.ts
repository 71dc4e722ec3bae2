// A small HTTP client for GVP's XML API (VPServlet). It posts one GVPSRequest document with a
// deadline and hands back the <GVPSResponse>. GVP reports refusals inside the document, whatever
// the HTTP status; anything else means the outcome is unknown: no answer within the deadline, a
// refused or reset connection, or a body GVP would never send (a proxy's HTML page, cut-off XML).
// For all of those the money may or may not have moved, so the client throws ProviderTimeoutError
// and the gateway asks GVP later (order inquiry), exactly as for a timeout. The logged exchange is
// the request and answer as trees, scrubbed of card data, hashes and personal details (scrub.ts).
import { ProviderTimeoutError } from '../types.ts';
import { scrub } from './scrub.ts';
import { gvpsRequestXml, parseGvpsResponse, type XmlNode, type XmlTree } from './xml.ts';

export const GARANTI_PROVIDER_ID = 'garanti';
export const DEFAULT_TIMEOUT_MS = 60_000;
/** The provider contract: every call answers or throws within 2 minutes. */
export const MAX_TIMEOUT_MS = 120_000;

/** One call as a logger may see it: no card data, no hashes, no passwords. */
export interface GarantiExchange {
  operation: string;
  request: unknown;
  outcome: 'answered' | 'no_answer' | 'unreadable';
  httpStatus: number | null;
  response: unknown;
  durationMs: number;
}

export interface GarantiClientOptions {
  apiUrl: string;
  timeoutMs?: number;
  onExchange?: (exchange: GarantiExchange) => void;
  now?: () => number;
}

export class GarantiClient {
  readonly #options: GarantiClientOptions;
  readonly #timeoutMs: number;

  constructor(options: GarantiClientOptions) {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMEOUT_MS) {
      throw new RangeError(`Garanti timeout must be 1..${MAX_TIMEOUT_MS} ms`);
    }
    this.#options = options;
    this.#timeoutMs = timeoutMs;
  }

  /** Posts one request; resolves with GVP's answer, throws ProviderTimeoutError when no readable answer came. */
  async call(operation: string, request: XmlNode): Promise<XmlTree> {
    const now = this.#options.now ?? Date.now;
    const started = now();
    const report = (outcome: GarantiExchange['outcome'], httpStatus: number | null, response: unknown): void => {
      const { onExchange } = this.#options;
      if (onExchange === undefined) return;
      // A logger that fails must not change the outcome of a call whose money may have moved.
      try {
        onExchange({ operation, request: scrub(request), outcome, httpStatus, response: response === null ? null : scrub(response), durationMs: now() - started });
      } catch {
        // ignored on purpose (above)
      }
    };

    let status: number;
    let raw: string;
    try {
      const res = await fetch(this.#options.apiUrl, {
        method: 'POST',
        // The document is the whole body, as mewebstudio/pos sends it (GVP also reads a `data=` form field).
        headers: { 'Content-Type': 'application/xml; charset=utf-8', Accept: 'application/xml' },
        body: gvpsRequestXml(request),
        signal: AbortSignal.timeout(this.#timeoutMs),
        redirect: 'error',
      });
      status = res.status;
      raw = await res.text();
    } catch {
      report('no_answer', null, null);
      throw new ProviderTimeoutError(GARANTI_PROVIDER_ID, operation);
    }
    const answer = parseGvpsResponse(raw);
    if (answer === null) {
      report('unreadable', status, { length: raw.length });
      throw new ProviderTimeoutError(GARANTI_PROVIDER_ID, operation);
    }
    report('answered', status, answer);
    return answer;
  }
}
