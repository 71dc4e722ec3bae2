// A small HTTP client for EST's XML API: posts one CC5Request with a deadline and hands back the
// CC5Response. Anything that is not a CC5Response (no answer within the deadline, a refused or
// reset connection, an HTML error page, cut-off XML) means the outcome is unknown: the money may
// or may not have moved, so the client throws ProviderTimeoutError and the gateway asks the bank
// later (ORDERSTATUS). The exchange handed to the logger carries no card data and no credentials.
import { scrubCardData } from '../../domain/card-masking.ts';
import { BankClient, type BankClientOptions, type BankWire } from '../bank-pos/client.ts';
import { buildCC5Request, parseCC5Response, type CC5Fields, type CC5Response } from './xml.ts';

export const EST_PROVIDER_ID = 'est';

export type EstClientOptions = BankClientOptions;

/** Fields never logged: the API password, the card's expiry and security code, the holder's name. */
const DROP = new Set(['Password', 'Expires', 'Cvv2Val', 'CARDHOLDERNAME']);

/**
 * A copy of a request or answer that is safe to log: the password, expiry, CVV and holder name go;
 * a card number keeps its last four digits; the bank's references and the 3D md token standing for
 * the card stay whole (domain/card-masking.ts).
 */
export const scrub = (value: unknown): unknown => scrubCardData(value, { drop: DROP });

/** EST's wire: a CC5Request document as the body, a CC5Response back. */
const WIRE: BankWire<CC5Fields, CC5Response> = {
  providerId: EST_PROVIDER_ID,
  name: 'EST',
  serialise: (fields) => ({ body: buildCC5Request(fields), headers: { 'Content-Type': 'application/xml', Accept: 'application/xml' } }),
  read: parseCC5Response,
  scrub,
};

export class EstClient extends BankClient<CC5Fields, CC5Response> {
  constructor(options: EstClientOptions) {
    super(WIRE, options);
  }
}
