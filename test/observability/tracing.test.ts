// OpenTelemetry traces: off (no OpenTelemetry module loaded, nothing sent) without an OTLP
// endpoint; with one, a real OTLP/HTTP receiver on 127.0.0.1 gets a server span per request,
// parented by the caller's `traceparent`, with the operation, status, workspace and request id,
// job-run spans, and no card number anywhere in what was exported. The spans still buffered
// when the gateway stops are exported by the stop.
//
// The first test must run before any gateway with tracing in this process (vitest runs the tests
// of a file in order, each file in a process of its own).
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useResources } from '../helpers/fixture.ts';
import { seedWorkspace } from '../helpers/gateway.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';

const resources = useResources();
const require = createRequire(import.meta.url);

/**
 * OpenTelemetry's packages load as CommonJS under Node, so every one loaded is in the require
 * cache. `@opentelemetry/api` alone is always there: prom-client (the metrics) requires it for its
 * exemplars. It is the inert API (no-op until an SDK registers), so it is left out here.
 */
const loadedOtelModules = () =>
  Object.keys(require.cache).filter((file) => file.includes(`${path.sep}@opentelemetry${path.sep}`) && !file.includes(`${path.sep}@opentelemetry${path.sep}api${path.sep}`));
/** Where @opentelemetry/api keeps its registered globals (tracer provider, context manager, propagator). */
const OTEL_API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

interface OtlpValue { stringValue?: string; intValue?: number | string; boolValue?: boolean }
interface OtlpSpan { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes: { key: string; value: OtlpValue }[] }
interface OtlpBody { resourceSpans: { resource: { attributes: { key: string; value: OtlpValue }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[] }

const attrs = (list: { key: string; value: OtlpValue }[]): Record<string, unknown> =>
  Object.fromEntries(list.map(({ key, value }) => [key, value.stringValue ?? (value.intValue === undefined ? value.boolValue : Number(value.intValue))]));

const traceparent = () => {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  return { traceId, parentId, header: `00-${traceId}-${parentId}-01` };
};

describe('tracing', () => {
  it('is off without an OTLP endpoint: no OpenTelemetry module is loaded and nothing is sent', async () => {
    const collector = await resources.startReceiver();
    // An empty endpoint counts as unset; the service name alone turns nothing on.
    const t = await resources.startGateway({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_SERVICE_NAME: 'gateway-untraced' } });
    const m = await seedWorkspace(t);
    const res = await m.call('regular-payment', paymentBody(m), { headers: { traceparent: traceparent().header } });
    expect(res.status).toBe(200);
    expect((await fetch(`${t.gateway.baseUrl}/healthz`)).status).toBe(200);
    await t.stop();

    expect(loadedOtelModules()).toEqual([]);
    expect((globalThis as Record<symbol, unknown>)[OTEL_API_GLOBAL]).toBeUndefined();
    expect(collector.requests).toHaveLength(0);
  });

  it('exports a server span per request, parented by the incoming traceparent, and job spans; flushed on stop', async () => {
    const collector = await resources.startReceiver();
    const t = await resources.startGateway({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: `${collector.url}/`, OTEL_SERVICE_NAME: 'gateway-under-test' } });
    const m = await seedWorkspace(t);

    const paid = traceparent();
    const res = await m.call('regular-payment', paymentBody(m, { card: { number: CARDS.mastercard } }), { headers: { traceparent: paid.header, 'X-Request-Id': 'trace-pay-1' } });
    expect(res.status).toBe(200);
    expect(res.body.result.successful).toBe(true);
    const bad = await m.call('retrieve-bin', { card: { bin: '41111111' } }, { secret: 'wrong' });
    expect(bad.status).toBe(401);
    expect((await fetch(`${t.gateway.baseUrl}/healthz`)).status).toBe(200);

    // Well inside the batch processor's 5-second delay: these spans reach the collector through the stop's flush.
    await t.stop();

    const posts = collector.requests.filter((r) => r.method === 'POST');
    expect(posts.length).toBeGreaterThan(0);
    for (const post of posts) {
      expect(post.path).toBe('/v1/traces');
      expect(post.headers['content-type']).toContain('application/json');
    }
    const bodies = posts.map((p) => JSON.parse(p.body) as OtlpBody);
    const resourceSpans = bodies.flatMap((b) => b.resourceSpans);
    for (const rs of resourceSpans) expect(attrs(rs.resource.attributes)['service.name']).toBe('gateway-under-test');
    const spans = resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans));

    const payment = spans.filter((s) => s.traceId === paid.traceId && s.kind === 2);
    expect(payment).toHaveLength(1);
    expect(payment[0]).toMatchObject({ name: 'POST regular-payment', kind: 2 /* SERVER */, parentSpanId: paid.parentId });
    expect(attrs(payment[0]!.attributes)).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': 200,
      'gateway.operation': 'regular-payment',
      'gateway.workspace': m.team,
      request_id: 'trace-pay-1',
    });

    // Prisma's spans of that request sit in its trace, under its span; SQL text carries no values.
    const payRequest = payment[0]!;
    const inPaymentTrace = spans.filter((s) => s.traceId === paid.traceId && s !== payRequest);
    expect(inPaymentTrace.some((s) => s.name === 'prisma:client:operation' && s.parentSpanId === payRequest.spanId)).toBe(true);
    expect(inPaymentTrace.some((s) => s.name === 'prisma:client:db_query')).toBe(true);

    const rejected = spans.find((s) => attrs(s.attributes).request_id === bad.headers.get('x-request-id'));
    expect(rejected?.name).toBe('POST retrieve-bin');
    expect(attrs(rejected!.attributes)['http.response.status_code']).toBe(401);
    // Without a traceparent a request starts a trace of its own.
    expect(rejected!.traceId).not.toBe(paid.traceId);
    expect(rejected!.parentSpanId || undefined).toBeUndefined();
    expect(spans.find((s) => s.name === 'GET healthz')).toBeDefined();

    // The recurring jobs ran meanwhile (every 200 ms in tests): a span per run with the job's name.
    const job = spans.find((s) => s.name === 'job deliver-webhooks');
    expect(job).toBeDefined();
    expect(attrs(job!.attributes)['job.name']).toBe('deliver-webhooks');

    // Card data never leaves in a span.
    const exported = posts.map((p) => p.body).join('\n');
    expect(exported).not.toContain(CARDS.mastercard);

    // The check of the first test sees OpenTelemetry when it is loaded.
    expect(loadedOtelModules().some((file) => file.includes('sdk-trace-node'))).toBe(true);
  });
});
