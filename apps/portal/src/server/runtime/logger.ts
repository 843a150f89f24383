import 'server-only';
import { trace } from '@opentelemetry/api';
import pino, { type DestinationStream, type Logger } from 'pino';
import { loadConfig, type LogLevel } from './config';

/**
 * JSON lines on stdout, one object per line, for log collectors. Errors go under `err`, which
 * pino serializes with their stack and cause.
 */
export function createLogger(
  level: LogLevel,
  destination: DestinationStream = process.stdout,
  /** Tracing is on: each line written while a span is current carries its trace_id and span_id. */
  traceIds = false,
): Logger {
  return pino(
    {
      level,
      base: { app: 'portal' },
      timestamp: pino.stdTimeFunctions.isoTime,
      ...(traceIds ? { mixin: traceIdsOfCurrentSpan } : {}),
    },
    destination,
  );
}

/** A new object each time: pino merges the line's own fields into it. */
function traceIdsOfCurrentSpan(): object {
  const span = trace.getActiveSpan();
  if (span === undefined) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

let shared: Logger | undefined;

/** The process's logger, at the configured PORTAL_LOG_LEVEL. */
export function logger(): Logger {
  const config = loadConfig();
  shared ??= createLogger(config.logLevel, process.stdout, config.tracing.enabled);
  return shared;
}
