// What the gateway asks of tracing (tracing.ts), apart from how spans are made: OpenTelemetry's
// implementation (otel.ts) is loaded only when an endpoint is set, and implements this.
import type http from 'node:http';
import type { RequestContext } from './context.ts';

export interface Tracing {
  readonly enabled: boolean;
  /**
   * Runs `handle` inside a server span for this request (its parent from an incoming W3C
   * `traceparent`). The span is named and given its status, operation and workspace when the
   * answer closes, from what `ctx` holds by then.
   */
  request(req: http.IncomingMessage, res: http.ServerResponse, ctx: RequestContext, handle: () => Promise<void>): Promise<void>;
  /** Runs one job inside a span of its own (job name and the scheduling request's id). */
  job<T>(name: string, requestId: string | undefined, run: () => Promise<T>): Promise<T>;
  /** Exports the spans still buffered and stops the exporter (a stop step). */
  shutdown(): Promise<void>;
}
