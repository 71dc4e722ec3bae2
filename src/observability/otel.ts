// The OpenTelemetry side of tracing.ts, loaded by it only when an OTLP endpoint is configured.
// Spans go to the endpoint as OTLP/HTTP JSON through a batch processor. Span attributes are the
// method, status, operation, workspace slug, request id and job name: never a URL (checkout and
// 3DS paths hold tokens), a header or a body, so no card data or secret can reach a collector.
import { context, diag, DiagLogLevel, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { PrismaInstrumentation } from '@prisma/instrumentation';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVICE_NAME,
  HTTP_REQUEST_METHOD_VALUE_OTHER,
} from '@opentelemetry/semantic-conventions';
import type { Logger } from '../logger.ts';
import type { Tracing } from './tracing-shape.ts';

/** Span names stay bounded: a method outside this set is named `_OTHER`, as the conventions ask. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function startOtel(opts: { url: string; serviceName: string; logger: Logger }): Tracing {
  // The SDK's own complaints (an unreachable collector, a rejected export) go to our log.
  diag.setLogger(
    {
      error: (msg) => opts.logger.warn('tracing', { detail: msg }),
      warn: (msg) => opts.logger.warn('tracing', { detail: msg }),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    DiagLogLevel.WARN,
  );
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: opts.serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: opts.url }))],
  });
  // Global tracer provider (for libraries' own spans), AsyncLocalStorage context, W3C propagation.
  provider.register();
  const tracer = provider.getTracer('payment-gateway');
  // Prisma's own spans (operation, connection, each SQL statement as parameterised text: no
  // values), children of the request or job span under way: the generated client reads the
  // tracing helper this sets on globalThis.
  const prisma = new PrismaInstrumentation({ enabled: false });
  prisma.setTracerProvider(provider);
  prisma.enable();

  return {
    enabled: true,
    request(req, res, ctx, handle) {
      const parent = propagation.extract(ROOT_CONTEXT, req.headers);
      const method = req.method && METHODS.has(req.method) ? req.method : HTTP_REQUEST_METHOD_VALUE_OTHER;
      const span = tracer.startSpan(`${method} ${ctx.operation ?? 'other'}`, {
        kind: SpanKind.SERVER,
        attributes: { [ATTR_HTTP_REQUEST_METHOD]: method, request_id: ctx.fields.request_id },
      }, parent);
      res.once('close', () => {
        const status = res.headersSent ? res.statusCode : 499; // as the access line: the client left
        const operation = ctx.operation ?? 'other';
        const attributes: Attributes = { [ATTR_HTTP_RESPONSE_STATUS_CODE]: status, 'gateway.operation': operation };
        if (ctx.workspace) attributes['gateway.workspace'] = ctx.workspace;
        if (status >= 500) {
          attributes[ATTR_ERROR_TYPE] = String(status);
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.updateName(`${method} ${operation}`);
        span.setAttributes(attributes);
        span.end();
      });
      return context.with(trace.setSpan(parent, span), handle);
    },
    async job(name, requestId, run) {
      const attributes: Attributes = { 'job.name': name };
      if (requestId) attributes.request_id = requestId;
      const span = tracer.startSpan(`job ${name}`, { kind: SpanKind.INTERNAL, attributes }, ROOT_CONTEXT);
      try {
        return await context.with(trace.setSpan(ROOT_CONTEXT, span), run);
      } catch (err) {
        // The error's kind only: messages are the log's business (it scrubs them), not the collector's.
        span.setAttribute(ATTR_ERROR_TYPE, (err as Error)?.name ?? 'Error');
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw err;
      } finally {
        span.end();
      }
    },
    async shutdown() {
      try {
        await provider.shutdown();
      } catch (err) {
        // A collector that is down must not turn a clean stop into a failed one.
        opts.logger.warn('tracing: spans not exported at stop', { error: (err as Error).message });
      } finally {
        prisma.disable();
        // A later gateway in this process (tests) may register its own.
        trace.disable();
        context.disable();
        propagation.disable();
        diag.disable();
      }
    },
  };
}
