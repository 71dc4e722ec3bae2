// A bank's API as one small client: each call is one request document sent with the account's
// deadline (../exchange.ts) and the bank's answer read by the bank's own reader. The bank brings
// its serialiser (the body and its headers), its reader and its scrubber; the exchange the logger
// sees is scrubbed by it (card number masked to its last four, expiry, CVV, passwords and hashes
// dropped, references kept whole: ../../domain/card-masking.ts).
import { checkTimeout, exchange, type Exchange } from '../exchange.ts';

export interface BankWire<Request, Answer> {
  providerId: string;
  /** For the deadline's error message ("EST timeout must be..."). */
  name: string;
  /** The request as sent: its body and content headers. */
  serialise(request: Request): { body: string; headers: Record<string, string> };
  /** The bank's answer from the body, or null when the body is not one. */
  read(raw: string): Answer | null;
  scrub(value: unknown): unknown;
}

export interface BankClientOptions {
  apiUrl: string;
  timeoutMs: number;
  onExchange?: (exchange: Exchange) => void;
  now?: () => number;
}

export class BankClient<Request, Answer> {
  readonly #wire: BankWire<Request, Answer>;
  readonly #options: BankClientOptions;

  constructor(wire: BankWire<Request, Answer>, options: BankClientOptions) {
    checkTimeout(wire.name, options.timeoutMs);
    this.#wire = wire;
    this.#options = options;
  }

  /** Sends one request; resolves with the bank's answer, or throws ProviderTimeoutError when no readable one came. */
  call(operation: string, request: Request): Promise<Answer> {
    const { apiUrl, timeoutMs, onExchange, now } = this.#options;
    const { body, headers } = this.#wire.serialise(request);
    return exchange({
      providerId: this.#wire.providerId,
      operation,
      url: apiUrl,
      request: { method: 'POST', headers, body },
      shown: request,
      timeoutMs,
      read: (raw) => this.#wire.read(raw),
      scrub: (value) => this.#wire.scrub(value),
      ...(onExchange ? { onExchange } : {}),
      ...(now ? { now } : {}),
    });
  }
}
