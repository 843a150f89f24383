import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { ExportTraceServiceRequest } from './otlp-trace-proto.js';

/*
 * An OTLP/HTTP trace receiver (POST /v1/traces) for tests and dev:stack: both encodings the apps
 * export in, `http/protobuf` (decoded by protobufjs with the OTLP protos) and `http/json` (the
 * OTLP JSON mapping: ids in hex, enums as numbers), turned into one plain shape.
 */

export type AttributeValue = string | number | boolean | null | AttributeValue[];

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  traceState: string;
  name: string;
  kind: 'UNSPECIFIED' | 'INTERNAL' | 'SERVER' | 'CLIENT' | 'PRODUCER' | 'CONSUMER';
  attributes: Record<string, AttributeValue>;
  status: { code: 'UNSET' | 'OK' | 'ERROR'; message: string };
  events: { name: string; attributes: Record<string, AttributeValue> }[];
  resource: Record<string, AttributeValue>;
  scope: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
}

export interface ReceivedExport {
  encoding: 'http/protobuf' | 'http/json';
  headers: IncomingHttpHeaders;
  spans: ReceivedSpan[];
}

export interface OtlpReceiver {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly url: string;
  /** `<url>/v1/traces`, for OTEL_EXPORTER_OTLP_TRACES_ENDPOINT. */
  readonly tracesUrl: string;
  readonly exports: readonly ReceivedExport[];
  /** Every span received so far, in order of arrival. */
  spans(): ReceivedSpan[];
  /** Resolves with the spans received once `done` says they are enough; rejects after `timeoutMs`. */
  waitFor(done: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

const KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'] as const;
const STATUS_CODES = ['UNSET', 'OK', 'ERROR'] as const;

type Json = Record<string, unknown>;

function hex(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.toLowerCase(); // OTLP/JSON writes ids in hex
  return Buffer.from(value as Uint8Array).toString('hex');
}

function anyValue(value: Json | undefined): AttributeValue {
  if (value === undefined) return null;
  if ('stringValue' in value) return value['stringValue'] as string;
  if ('boolValue' in value) return value['boolValue'] as boolean;
  if ('intValue' in value) return Number(value['intValue']);
  if ('doubleValue' in value) return Number(value['doubleValue']);
  if ('arrayValue' in value) {
    return (((value['arrayValue'] as Json)['values'] as Json[] | undefined) ?? []).map((item) => anyValue(item));
  }
  if ('bytesValue' in value) return hex(value['bytesValue']);
  return null;
}

function attributes(list: unknown): Record<string, AttributeValue> {
  const result: Record<string, AttributeValue> = {};
  for (const pair of (list as Json[] | undefined) ?? [])
    result[pair['key'] as string] = anyValue(pair['value'] as Json);
  return result;
}

/** The request in the OTLP JSON mapping (protobuf's decoded to the same camelCase objects). */
function spansOf(request: Json): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of (request['resourceSpans'] as Json[] | undefined) ?? []) {
    const resource = attributes((resourceSpans['resource'] as Json | undefined)?.['attributes']);
    for (const scopeSpans of (resourceSpans['scopeSpans'] as Json[] | undefined) ?? []) {
      const scope = ((scopeSpans['scope'] as Json | undefined)?.['name'] as string | undefined) ?? '';
      for (const span of (scopeSpans['spans'] as Json[] | undefined) ?? []) {
        const status = (span['status'] as Json | undefined) ?? {};
        spans.push({
          traceId: hex(span['traceId']),
          spanId: hex(span['spanId']),
          parentSpanId: hex(span['parentSpanId']),
          traceState: (span['traceState'] as string | undefined) ?? '',
          name: span['name'] as string,
          kind: KINDS[Number(span['kind'] ?? 0)] ?? 'UNSPECIFIED',
          attributes: attributes(span['attributes']),
          status: {
            code: STATUS_CODES[Number(status['code'] ?? 0)] ?? 'UNSET',
            message: (status['message'] as string | undefined) ?? '',
          },
          events: ((span['events'] as Json[] | undefined) ?? []).map((event) => ({
            name: event['name'] as string,
            attributes: attributes(event['attributes']),
          })),
          resource,
          scope,
          startTimeUnixNano: String((span['startTimeUnixNano'] as string | number | undefined) ?? ''),
          endTimeUnixNano: String((span['endTimeUnixNano'] as string | number | undefined) ?? ''),
        });
      }
    }
  }
  return spans;
}

export function decodeExport(contentType: string, body: Buffer): ReceivedExport['spans'] {
  if (contentType.startsWith('application/json')) return spansOf(JSON.parse(body.toString('utf8')) as Json);
  const message = ExportTraceServiceRequest.decode(body);
  return spansOf(ExportTraceServiceRequest.toObject(message, { longs: String, enums: Number, bytes: Buffer }));
}

export interface OtlpReceiverOptions {
  port?: number;
  host?: string;
  /** Called with each export's spans as they arrive (dev:stack's file sink). */
  onExport?: (received: ReceivedExport) => void;
}

export async function startOtlpReceiver(options: OtlpReceiverOptions = {}): Promise<OtlpReceiver> {
  const exports: ReceivedExport[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const contentType = request.headers['content-type'] ?? '';
      const json = contentType.startsWith('application/json');
      try {
        let body = Buffer.concat(chunks);
        if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        const received: ReceivedExport = {
          encoding: json ? 'http/json' : 'http/protobuf',
          headers: request.headers,
          spans: decodeExport(contentType, body),
        };
        exports.push(received);
        options.onExport?.(received);
        for (const wake of waiters) wake();
        // An empty ExportTraceServiceResponse in the request's encoding: everything accepted.
        response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
        response.end(json ? '{}' : '');
      } catch (error) {
        response.writeHead(400, { 'content-type': 'text/plain' });
        response.end(error instanceof Error ? error.message : String(error));
      }
    });
  });
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  const spans = () => exports.flatMap((received) => received.spans);

  return {
    url,
    tracesUrl: `${url}/v1/traces`,
    exports,
    spans,
    waitFor(done, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!done(spans())) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(spans());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `the spans awaited did not arrive within ${timeoutMs} ms; received: ${JSON.stringify(spans().map((s) => s.name))}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
