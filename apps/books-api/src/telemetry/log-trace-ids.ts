import { trace } from '@opentelemetry/api';
import type { Logger } from 'pino';

/**
 * `trace_id` and `span_id` on log lines written while a span is active (pino's `mixin`, given
 * to the logger only when tracing is on). Request loggers carry the ids as bindings instead
 * (server-spans.ts), because a request's later lines, its request line included, are written
 * where no span is active any more; those loggers are marked so the ids are not written twice.
 */
const TRACED_REQUEST_LOGGER = Symbol('traced request logger');

export function traceIdsMixin(_fields: object, _level: number, logger: Logger): object {
  // A new object each time: pino merges the line's own fields into it.
  if ((logger as unknown as Record<symbol, unknown>)[TRACED_REQUEST_LOGGER] === true) return {};
  const span = trace.getActiveSpan();
  if (span === undefined) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** A child of `logger` whose every line carries these ids. */
export function loggerWithTraceIds<L extends { child(bindings: Record<string, string>): L }>(
  logger: L,
  traceId: string,
  spanId: string,
): L {
  const child = logger.child({ trace_id: traceId, span_id: spanId });
  (child as unknown as Record<symbol, unknown>)[TRACED_REQUEST_LOGGER] = true;
  return child;
}
