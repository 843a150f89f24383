import assert from 'node:assert/strict';
import { test } from 'node:test';
import { context, propagation, trace } from '@opentelemetry/api';
import { BatchSpanProcessor, NodeTracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { ReportedExporter } from '../src/index.js';

test('a collector that fails is logged once until an export works again, which is logged too', () => {
  const outcomes = [1, 1, 1, 0, 0, 1];
  const lines: string[] = [];
  const log = {
    warn: (_fields: object, message: string) => lines.push(`warn ${message}`),
    info: (_fields: object, message: string) => lines.push(`info ${message}`),
  };
  const inner = {
    export: (_spans: string[], done: (result: { code: number; error?: Error }) => void) =>
      done({ code: outcomes.shift()!, error: new Error('connect ECONNREFUSED') }),
    shutdown: () => Promise.resolve(),
  };
  const exporter = new ReportedExporter(inner, 'http://127.0.0.1:4318/v1/traces', log);
  const results: number[] = [];
  for (let batch = 0; batch < 6; batch++) exporter.export(['span'], (result) => results.push(result.code));
  assert.deepEqual(results, [1, 1, 1, 0, 0, 1]);
  assert.deepEqual(
    lines.map((line) => line.split(':')[0]),
    ['warn traces cannot be exported', 'info traces are exported again', 'warn traces cannot be exported'],
  );
});

test('the failure and recovery lines are written outside the trace of the request whose span filled the batch', async () => {
  // As in the apps: the SDK's batch processor, its context manager, and a log that reads the active span, as their mixins do.
  const outcomes = [1, 0];
  const activeTraceAtLine: Record<string, string | undefined> = {};
  const line = (message: string) => {
    activeTraceAtLine[message.split(':')[0]!] = trace.getActiveSpan()?.spanContext().traceId;
  };
  const inner = {
    export: (_spans: ReadableSpan[], done: (result: { code: number; error?: Error }) => void) =>
      setImmediate(() => done({ code: outcomes.shift()!, error: new Error('connect ECONNREFUSED') })),
    shutdown: () => Promise.resolve(),
  };
  const log = {
    warn: (_fields: object, message: string) => line(message),
    info: (_fields: object, message: string) => line(message),
  };
  const exporter = new ReportedExporter(inner, 'http://127.0.0.1:4318/v1/traces', log);
  const provider = new NodeTracerProvider({
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1 })],
  });
  provider.register();
  try {
    const tracer = provider.getTracer('test');
    const requestTraces: string[] = [];
    for (const expected of ['traces cannot be exported', 'traces are exported again']) {
      // A request's span ends while it is still the active one, which starts the batch's timer.
      tracer.startActiveSpan('GET /books', (span) => {
        requestTraces.push(span.spanContext().traceId);
        span.end();
      });
      while (!(expected in activeTraceAtLine)) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assert.equal(requestTraces.length, 2);
    assert.deepEqual(activeTraceAtLine, {
      'traces cannot be exported': undefined,
      'traces are exported again': undefined,
    });
  } finally {
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  }
});
