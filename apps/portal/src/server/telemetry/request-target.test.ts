import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { describe, expect, it } from 'vitest';
import { requestTargetWithoutQuery } from './request-target';

/** The `http.target` each span was exported with, for spans started with these targets (as Next.js starts them). */
function exportedTargets(targets: string[]): unknown[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [requestTargetWithoutQuery, new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('next.js');
  for (const target of targets)
    tracer.startSpan('GET', { attributes: { 'http.method': 'GET', 'http.target': target } }).end();
  return exporter.getFinishedSpans().map((span) => span.attributes['http.target']);
}

describe('the request target of a span', () => {
  it('keeps the path and drops the query string', () => {
    expect(
      exportedTargets([
        '/api/auth/callback?code=one-time-code&state=opaque-state',
        '/resources?token=secret',
        '/resources?',
      ]),
    ).toEqual(['/api/auth/callback', '/resources', '/resources']);
  });

  it('leaves a target without a query as it is', () => {
    expect(exportedTargets(['/resources', '/api/platform/resources/history'])).toEqual([
      '/resources',
      '/api/platform/resources/history',
    ]);
  });
});
