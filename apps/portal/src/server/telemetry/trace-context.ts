import 'server-only';
import { context, isSpanContextValid, propagation, trace } from '@opentelemetry/api';

/*
 * The trace a portal action runs in, for what the action leaves behind: the Account's annotation
 * (its W3C traceparent) and the ledger record (its trace id). Read from the current span through
 * the OpenTelemetry API alone: with tracing off no propagator and no span exist, and both are
 * undefined.
 */

/** The annotation that carries the traceparent of the last action on an Account. */
export const TRACEPARENT_ANNOTATION = 'platform-portal/traceparent';

/** `00-<trace id>-<span id>-<flags>` of the current span, as it would go out in a request. */
export function currentTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier['traceparent'];
}

/** The current trace's id (32 lowercase hex digits). */
export function currentTraceId(): string | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext !== undefined && isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}

/** `body` (an Account, or a merge patch of one) with the current traceparent among its annotations. */
export function withTraceparent<T extends object>(body: T): T {
  const traceparent = currentTraceparent();
  if (traceparent === undefined) return body;
  const metadata = (body as { metadata?: { annotations?: Record<string, string> } }).metadata ?? {};
  return {
    ...body,
    metadata: { ...metadata, annotations: { ...metadata.annotations, [TRACEPARENT_ANNOTATION]: traceparent } },
  };
}
