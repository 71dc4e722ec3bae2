// Optional OpenTelemetry traces. Off unless the standard OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT
// or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is configured: then, and only then, `./otel.ts` and the
// OpenTelemetry packages are loaded (this file imports none of them), and every HTTP request and
// every job run gets a span. Without an endpoint the calls below only run the work they wrap.
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { Tracing } from './tracing-shape.ts';

export const noTracing: Tracing = {
  enabled: false,
  request: (_req, _res, _ctx, handle) => handle(),
  job: (_name, _requestId, run) => run(),
  shutdown: async () => {},
};

type TracingConfig = Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' | 'OTEL_SERVICE_NAME'>;

/** Where spans go, by the OTLP/HTTP rules: the traces endpoint as is, else the base endpoint + `/v1/traces`; null = tracing off. */
export function tracesEndpoint(config: TracingConfig): string | null {
  const traces = config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = config.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : null;
}

export async function startTracing(config: TracingConfig, logger: Logger): Promise<Tracing> {
  const url = tracesEndpoint(config);
  if (!url) return noTracing;
  const { startOtel } = await import('./otel.ts');
  const serviceName = config.OTEL_SERVICE_NAME?.trim() || 'payment-gateway';
  const tracing = startOtel({ url, serviceName, logger });
  logger.info('tracing on', { endpoint: url, service: serviceName });
  return tracing;
}
