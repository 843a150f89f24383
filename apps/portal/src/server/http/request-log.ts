import 'server-only';
import { logger } from '../runtime/logger';
import { recordRequest } from '../telemetry/metrics';

/** One line per API request, and its count and duration in the metrics: who (the signed-in identity, when there is one), what, the answer and how long it took. */
export function logRequest(
  request: Request,
  context: { requestId: string; user?: string | undefined },
  status: number,
  startedAt: number,
): void {
  const url = new URL(request.url);
  const path = `${url.pathname}${url.search}`;
  const elapsedMs = performance.now() - startedAt;
  recordRequest(request.method, url.pathname, status, elapsedMs / 1000);
  const latencyMs = Math.round(elapsedMs * 100) / 100;
  logger().info(
    {
      requestId: context.requestId,
      user: context.user ?? 'anonymous',
      method: request.method,
      path,
      status,
      latencyMs,
    },
    `${request.method} ${path} ${status} ${latencyMs}ms`,
  );
}
