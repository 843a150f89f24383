/**
 * dev:stack's trace collector: an OTLP/HTTP receiver (packages/test-otlp-receiver, both
 * encodings) that appends every span it receives to a file as one JSON line, so both apps'
 * spans can be read with jq while the stack runs (docs/operations.md, "Traces").
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { startOtlpReceiver, type OtlpReceiver } from '@books/test-otlp-receiver';

export async function startSpanFile(path: string, port: number): Promise<OtlpReceiver> {
  writeFileSync(path, '');
  return startOtlpReceiver({
    port,
    onExport: ({ spans }) => {
      const lines = spans.map((span) =>
        JSON.stringify({
          service: span.resource['service.name'],
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId,
          name: span.name,
          kind: span.kind,
          status: span.status.code,
          durationMs: (Number(BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano)) / 1e6).toFixed(3),
          attributes: span.attributes,
        }),
      );
      if (lines.length > 0) appendFileSync(path, `${lines.join('\n')}\n`);
    },
  });
}
