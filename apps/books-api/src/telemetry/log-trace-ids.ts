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

/**
 * Every later line of `logger` carries these ids. The request's own logger gets them as bindings
 * rather than through a child: a child of each request's fresh logger costs V8 far more, as it
 * turns that logger into a prototype.
 */
export function bindTraceIds(logger: Logger, traceId: string, spanId: string): void {
  logger.setBindings({ trace_id: traceId, span_id: spanId });
  (logger as unknown as Record<symbol, unknown>)[TRACED_REQUEST_LOGGER] = true;
}
