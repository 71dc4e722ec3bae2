// InterPOS's API as a BankClient (../bank-pos/client.ts): one form-encoded request posted to the
// API address, one `Name=value;;...` answer (wire.ts). Anything else (no answer in time, an HTML
// page, a body without ProcReturnCode) is no answer: ProviderTimeoutError, and the gateway asks
// the status inquiry later. The logged exchange keeps the card's last four and InterPOS's
// references, and drops the expiry, CVV2, the API password, hashes and the ACS's proof.
import { scrubCardData } from '../../domain/card-masking.ts';
import type { Exchange } from '../exchange.ts';
import { BankClient, type BankWire } from '../bank-pos/client.ts';
import { decodeAnswer, encodeRequest, type InterPosAnswer, type InterPosRequest } from './wire.ts';

export const INTERPOS_PROVIDER_ID = 'interpos';
export const DEFAULT_TIMEOUT_MS = 60_000;

const DROP = new Set(['Cvv2', 'Expiry', 'UserPass', 'Hash', 'HASH', 'MD', 'PayerAuthenticationCode', 'CardHolderName']);

/** A deep copy of an InterPOS request or answer that is safe to log. */
export const scrub = (value: unknown): unknown => scrubCardData(value, { drop: DROP });

const WIRE: BankWire<InterPosRequest, InterPosAnswer> = {
  providerId: INTERPOS_PROVIDER_ID,
  name: 'InterPOS',
  serialise: (request) => ({ body: encodeRequest(request), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
  read: decodeAnswer,
  scrub,
};

export interface InterPosClientOptions {
  apiUrl: string;
  timeoutMs?: number;
  onExchange?: (exchange: Exchange) => void;
  now?: () => number;
}

export class InterPosClient extends BankClient<InterPosRequest, InterPosAnswer> {
  constructor(options: InterPosClientOptions) {
    super(WIRE, { ...options, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS });
  }
}
