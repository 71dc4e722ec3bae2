// A small HTTP client for GVP's XML API (VPServlet). It posts one GVPSRequest document with a
// deadline and hands back the <GVPSResponse>. GVP reports refusals inside the document, whatever
// the HTTP status; anything else means the outcome is unknown: no answer within the deadline, a
// refused or reset connection, or a body GVP would never send (a proxy's HTML page, cut-off XML).
// For all of those the money may or may not have moved, so the client throws ProviderTimeoutError
// and the gateway asks GVP later (order inquiry), exactly as for a timeout. The logged exchange is
// the request and answer as trees, scrubbed of card data, hashes and personal details (scrub.ts).
import type { Exchange } from '../exchange.ts';
import { BankClient, type BankWire } from '../bank-pos/client.ts';
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

/** GVP's wire: the GVPSRequest document is the whole body, as mewebstudio/pos sends it (GVP also reads a `data=` form field). */
const WIRE: BankWire<XmlNode, XmlTree> = {
  providerId: GARANTI_PROVIDER_ID,
  name: 'Garanti',
  serialise: (request) => ({ body: gvpsRequestXml(request), headers: { 'Content-Type': 'application/xml; charset=utf-8', Accept: 'application/xml' } }),
  read: parseGvpsResponse,
  scrub,
};

export class GarantiClient extends BankClient<XmlNode, XmlTree> {
  constructor(options: GarantiClientOptions) {
    super(WIRE, { ...options, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS });
  }
}
