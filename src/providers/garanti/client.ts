// A small HTTP client for GVP's XML API (VPServlet). It posts one GVPSRequest document with a
// deadline and hands back the <GVPSResponse>. GVP reports refusals inside the document, whatever
// the HTTP status; anything else means the outcome is unknown: no answer within the deadline, a
// refused or reset connection, or a body GVP would never send (a proxy's HTML page, cut-off XML).
// For all of those the money may or may not have moved, so the client throws ProviderTimeoutError
// and the gateway asks GVP later (order inquiry), exactly as for a timeout. The logged exchange is
// the request and answer as trees, scrubbed of card data, hashes and personal details (scrub.ts).
import { checkTimeout, exchange, type Exchange } from '../exchange.ts';
import { scrub } from './scrub.ts';
import { gvpsRequestXml, parseGvpsResponse, type XmlNode, type XmlTree } from './xml.ts';

export const GARANTI_PROVIDER_ID = 'garanti';
export const DEFAULT_TIMEOUT_MS = 60_000;

export interface GarantiClientOptions {
  apiUrl: string;
  timeoutMs?: number;
  onExchange?: (exchange: Exchange) => void;
  now?: () => number;
}

export class GarantiClient {
  readonly #options: GarantiClientOptions;
  readonly #timeoutMs: number;

  constructor(options: GarantiClientOptions) {
    this.#timeoutMs = checkTimeout('Garanti', options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.#options = options;
  }

  /** Posts one request; resolves with GVP's answer, throws ProviderTimeoutError when no readable answer came. */
  call(operation: string, request: XmlNode): Promise<XmlTree> {
    const { apiUrl, onExchange, now } = this.#options;
    return exchange({
      providerId: GARANTI_PROVIDER_ID,
      operation,
      url: apiUrl,
      // The document is the whole body, as mewebstudio/pos sends it (GVP also reads a `data=` form field).
      request: { method: 'POST', headers: { 'Content-Type': 'application/xml; charset=utf-8', Accept: 'application/xml' }, body: gvpsRequestXml(request) },
      shown: request,
      timeoutMs: this.#timeoutMs,
      read: parseGvpsResponse,
      scrub,
      ...(onExchange ? { onExchange } : {}),
      ...(now ? { now } : {}),
    });
  }
}
