import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import fp from 'fastify-plugin';
import { SERVICE_VERSION } from '../service-info.js';
import { ReportedExporter, tracedSql, type ExportFailureLog, type TracingSwitch } from '@books/shared-rules';
import serverSpans, { describeServerSpan, serverSpanOf } from './server-spans.js';

import type { Tracing } from './tracing-hooks.js';

/**
 * The OpenTelemetry SDK, loaded by server.ts only when tracing is on (config.ts, `tracing`).
 * Everything else comes from the standard variables as the SDK reads them: the sampler
 * (OTEL_TRACES_SAMPLER, default parentbased_always_on), the resource (OTEL_SERVICE_NAME,
 * OTEL_RESOURCE_ATTRIBUTES), the exporter's endpoint, headers, timeout and compression
 * (OTEL_EXPORTER_OTLP_*), the batch processor's queue (OTEL_BSP_*) and the propagators.
 */
export function startTracing(settings: Extract<TracingSwitch, { enabled: true }>, log: ExportFailureLog): Tracing {
  const exporter = settings.protocol === 'http/json' ? new JsonTraceExporter() : new ProtobufTraceExporter();
  const provider = new NodeTracerProvider({
    // The app's defaults, under what OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES say.
    resource: resourceFromAttributes({ 'service.name': 'books-api', 'service.version': SERVICE_VERSION }).merge(
      detectResources({ detectors: [envDetector] }),
    ),
    spanProcessors: [new BatchSpanProcessor(new ReportedExporter(exporter, settings.tracesUrl, log))],
  });
  // The async-hooks context manager and the W3C trace-context propagator, as the SDK sets them up.
  provider.register();

  const fastify = new FastifyOtelInstrumentation({
    // One span per request: no span per hook or for the handler (the statements' spans are
    // children of the request's).
    instrumentHooks: false,
    instrumentHandler: false,
    requestHook: describeServerSpan,
  });
  // fetch (the traffic generator, the identity provider's keys) through Node's undici: a CLIENT
  // span and `traceparent` on every outgoing request.
  registerInstrumentations({ tracerProvider: provider, instrumentations: [fastify, new UndiciInstrumentation()] });
  const tracer = trace.getTracer('books-api-database', SERVICE_VERSION);

  return {
    // fastify-plugin: its hooks must apply to the whole app, not a context of their own.
    plugin: fp(async (instance) => {
      await instance.register(serverSpans, { instrumentation: fastify });
    }),
    instrumentSql: (sql) => tracedSql(sql, tracer),
    traceIdOf(request) {
      const span = serverSpanOf(request);
      if (span === undefined) return undefined;
      const spanContext = span.spanContext();
      // Only a sampled trace can be found in the trace store an exemplar links to.
      return (spanContext.traceFlags & 1) === 1 ? spanContext.traceId : undefined;
    },
    shutdown: () => provider.shutdown(),
  };
}
