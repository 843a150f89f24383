import 'server-only';
import type { Span, SpanProcessor } from '@opentelemetry/sdk-trace-node';

/**
 * Next.js records each incoming request's URL as it arrived in `http.target` of its SERVER spans,
 * query string included: the OpenID Connect callback's authorization code and state, or whatever
 * else a link carries. A span's attributes can still change when a processor sees it start, so
 * this one keeps the path and drops the query before any exporter sees the span.
 */
export const requestTargetWithoutQuery: SpanProcessor = {
  onStart(span: Span): void {
    const target = span.attributes['http.target'];
    if (typeof target !== 'string') return;
    const query = target.indexOf('?');
    if (query !== -1) span.setAttribute('http.target', target.slice(0, query));
  },
  onEnd(): void {},
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};
