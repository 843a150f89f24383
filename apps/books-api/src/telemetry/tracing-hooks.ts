import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Sql } from 'postgres';

/**
 * What the app needs from tracing when it is on (tracing.ts makes it, and only then loads the
 * OpenTelemetry SDK): without tracing the app is built without any of it, so a request pays
 * nothing for a switch that is off.
 */
export interface Tracing {
  /** Registered first, before any route: the SERVER span of each request (server-spans.ts). */
  readonly plugin: FastifyPluginAsync;
  /** The pool, with a CLIENT span per statement sent within a traced request (traced-sql.ts). */
  readonly instrumentSql: (sql: Sql) => Sql;
  /** The request's trace id (lowercase hex) for the duration histogram's exemplar, if it is sampled. */
  readonly traceIdOf: (request: FastifyRequest) => string | undefined;
  /** Exports the spans still queued and stops. */
  readonly shutdown: () => Promise<void>;
}
