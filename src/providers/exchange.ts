// One call to a provider's API, the same way for every connector: sent with a deadline, its
// answer read by the connector's own reader, the exchange handed to the logger scrubbed. Anything
// that is not a readable answer (no answer within the deadline, a refused or reset connection, a
// proxy's HTML page, a cut-off body) means the outcome is unknown: the money may or may not have
// moved, so the call throws ProviderTimeoutError and the gateway asks the provider later. Only a
// connection that never opened (neverSent) is known to have moved nothing: ProviderUnreachableError.
import { ProviderTimeoutError, ProviderUnreachableError } from './types.ts';

/**
 * Connection errors that happen before any byte of the request is written: refused, no such host,
 * DNS failure, undici's connect timeout. A reset or a timeout after connecting may come after the
 * provider read the request, so they are not among them.
 */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** Whether a failed fetch never sent its request (fetch wraps the socket's error as its `cause`). */
export function neverSent(err: unknown): boolean {
  const cause = (err as { cause?: { code?: unknown; errors?: Array<{ code?: unknown }> } } | null)?.cause;
  if (!cause) return false;
  if (typeof cause.code === 'string' && NOT_SENT.has(cause.code)) return true;
  // A host with several addresses fails with an AggregateError of one error per address.
  return Array.isArray(cause.errors) && cause.errors.length > 0 && cause.errors.every((e) => typeof e.code === 'string' && NOT_SENT.has(e.code));
}

/** What a call that got no answer throws: unreachable when nothing was sent, else a timeout (unknown outcome). */
export function noAnswerError(err: unknown, providerId: string, operation: string): ProviderTimeoutError {
  return neverSent(err) ? new ProviderUnreachableError(providerId, operation) : new ProviderTimeoutError(providerId, operation);
}

/** The provider contract: every call answers or throws within 2 minutes. */
export const MAX_TIMEOUT_MS = 120_000;

/** One call as a logger may see it: scrubbed of card data, credentials and hashes. */
export interface Exchange {
  operation: string;
  request: unknown;
  /** 'answered': the provider's answer came back; 'no_answer': timeout or connection failure; 'unreadable': a body it would never send. */
  outcome: 'answered' | 'no_answer' | 'unreadable';
  httpStatus: number | null;
  response: unknown;
  durationMs: number;
}

export interface Call<A> {
  providerId: string;
  operation: string;
  url: string;
  request: RequestInit & { body: string };
  /** What the logger sees of the request (before scrubbing). */
  shown: unknown;
  timeoutMs: number;
  /** The provider's answer from the body, or null when the body is not one. */
  read(raw: string): A | null;
  scrub(value: unknown): unknown;
  onExchange?: (exchange: Exchange) => void;
  now?: () => number;
}

/** Throws RangeError unless the deadline is a whole number of milliseconds within the contract's 2 minutes. */
export function checkTimeout(provider: string, timeoutMs: number): number {
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMEOUT_MS) throw new RangeError(`${provider} timeout must be 1..${MAX_TIMEOUT_MS} ms`);
  return timeoutMs;
}

export async function exchange<A>(call: Call<A>): Promise<A> {
  const now = call.now ?? Date.now;
  const started = now();
  const report = (outcome: Exchange['outcome'], httpStatus: number | null, response: unknown): void => {
    if (call.onExchange === undefined) return;
    // A logger that fails must not change the outcome of a call whose money may have moved.
    try {
      call.onExchange({ operation: call.operation, request: call.scrub(call.shown), outcome, httpStatus, response: response === null ? null : call.scrub(response), durationMs: now() - started });
    } catch {
      // ignored on purpose (above)
    }
  };
  let status: number;
  let raw: string;
  try {
    const res = await fetch(call.url, { ...call.request, signal: AbortSignal.timeout(call.timeoutMs), redirect: 'error' });
    status = res.status;
    raw = await res.text();
  } catch (err) {
    report('no_answer', null, null);
    throw noAnswerError(err, call.providerId, call.operation);
  }
  const answer = call.read(raw);
  if (answer === null) {
    report('unreadable', status, { length: raw.length });
    throw new ProviderTimeoutError(call.providerId, call.operation);
  }
  report('answered', status, answer);
  return answer;
}
