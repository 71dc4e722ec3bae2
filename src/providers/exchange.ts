// One call to a provider's API, the same way for every connector: sent with a deadline, its
// answer read by the connector's own reader, the exchange handed to the logger scrubbed. Anything
// that is not a readable answer (no answer within the deadline, a refused or reset connection, a
// proxy's HTML page, a cut-off body) means the outcome is unknown: the money may or may not have
// moved, so the call throws ProviderTimeoutError and the gateway asks the provider later.
import { ProviderTimeoutError } from './types.ts';

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
  } catch {
    report('no_answer', null, null);
    throw new ProviderTimeoutError(call.providerId, call.operation);
  }
  const answer = call.read(raw);
  if (answer === null) {
    report('unreadable', status, { length: raw.length });
    throw new ProviderTimeoutError(call.providerId, call.operation);
  }
  report('answered', status, answer);
  return answer;
}
