import 'server-only';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ReportedExporter, type ExportFailureLog, type TracingSwitch } from '@books/shared-rules';
import { requestTargetWithoutQuery } from './request-target';

/**
 * The OpenTelemetry SDK, loaded by instrumentation-node.ts only when tracing is on (config.ts,
 * `tracing`), before anything that calls out is loaded. The SDK reads the standard variables
 * itself: sampler, resource, the exporter's endpoint, headers and timeout, the batch queue.
 *
 * Next.js makes the SERVER span of each page and route request itself once a tracer provider is
 * registered (continuing an incoming traceparent); its `http.target` loses the query string
 * before export (request-target.ts). Outgoing calls get CLIENT spans and
 * `traceparent`: the Kubernetes client and the Azure SDK call through node:http/https (the HTTP
 * instrumentation, incoming requests left to Next), openid-client through fetch (undici).
 */
export function startTracing(settings: Extract<TracingSwitch, { enabled: true }>, log: ExportFailureLog): void {
  const exporter = settings.protocol === 'http/json' ? new JsonTraceExporter() : new ProtobufTraceExporter();
  const provider = new NodeTracerProvider({
    // The portal's default name, under what OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES say.
    resource: resourceFromAttributes({ 'service.name': 'platform-portal' }).merge(
      detectResources({ detectors: [envDetector] }),
    ),
    spanProcessors: [
      requestTargetWithoutQuery,
      new BatchSpanProcessor(new ReportedExporter(exporter, settings.tracesUrl, log)),
    ],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        disableIncomingRequestInstrumentation: true,
        // A call made outside any request (the watch cache's list and watch) is no trace of its own.
        requireParentforOutgoingSpans: true,
      }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
    ],
  });
  process.once('beforeExit', () => void provider.shutdown());
}
