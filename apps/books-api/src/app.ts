import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from './config.js';
import { serverOptions } from './server-options.js';
import openapi from './plugins/external/openapi.js';
import bookStorePlugin from './plugins/app/book-store.js';
import errors from './plugins/app/errors.js';
import jsonBody from './plugins/app/json-body.js';
import notFound from './plugins/app/not-found.js';
import authentication, { type ProviderKeyTimings } from './plugins/app/authentication.js';
import loginThrottle from './plugins/app/login-throttle.js';
import requestLog, { RequestCompletion } from './plugins/app/request-log.js';
import securityHeaders from './plugins/app/security-headers.js';
import connections from './plugins/app/connections.js';
import routeRegistry from './plugins/app/route-registry.js';
import headRoutes from './plugins/app/head-routes.js';
import validation from './plugins/app/validation.js';
import metrics from './plugins/app/metrics.js';
import trafficGenerator, { type TrafficGeneratorPluginOptions } from './traffic/plugin.js';
import docs from './routes/docs.js';
import favicon from './routes/favicon.js';
import token from './routes/token.js';
import jwks from './routes/well-known-jwks.js';
import root from './routes/root.js';
import monitoring from './routes/api/monitoring.js';
import books from './routes/api/v1/books/index.js';
import { sharedSchemas } from './schemas/shared.js';
import type { BookStore } from './store/book-store.js';
import type { LoginThrottle } from './auth/login-throttle.js';
import type { Tracing } from './telemetry/tracing-hooks.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

export interface AppOptions {
  config: Config;
  /** A ready store; by default the seeded in-memory store. */
  store?: BookStore;
  /** A ready failed-login throttle; by default one in this process's memory. */
  loginThrottle?: LoginThrottle;
  /** Overrides the identity provider's key refetch, retry and refresh intervals (tests). */
  providerKeyTimings?: ProviderKeyTimings;
  /** Overrides the generator's 0.5–1.5 s pause (tests); the switch itself stays in config. */
  trafficDelayMs?: TrafficGeneratorPluginOptions['nextDelayMs'];
  tracing?: Tracing; // spans, trace ids in log lines, exemplars: server.ts starts it when config.tracing is on
}

/** What buildApp hands the app besides the caller's options: the instance's log controller. */
type InstanceParts = { completion: RequestCompletion };

/**
 * The service as a plugin, in a visible order: third-party plugins, our services,
 * our cross-cutting plugins (which watch routes as they are added), then the routes.
 */
export default async function app(fastify: FastifyInstance, options: AppOptions & InstanceParts): Promise<void> {
  const { config, tracing, store } = options;
  // 1. Third-party plugins; the request's span first, so every later hook runs inside it
  if (tracing !== undefined) await fastify.register(tracing.plugin);
  await fastify.register(openapi);

  // 2. Our services
  fastify.decorate('config', config);
  await fastify.register(bookStorePlugin, { store, database: config.database, instrumentSql: tracing?.instrumentSql });
  await fastify.register(loginThrottle, {
    settings: config.auth.loginThrottle,
    throttle: options.loginThrottle,
    databaseWaitTimeoutMs: config.database?.waitTimeoutMs,
  });
  for (const schema of sharedSchemas) fastify.addSchema(schema);

  // 3. Our plugins (order matters only where noted)
  await fastify.register(errors);
  // The first onRequest hook: every answer carries the request id, the other hooks' errors included.
  await fastify.register(requestLog);
  await fastify.register(securityHeaders); // nosniff, before any hook that may answer an error
  await fastify.register(connections, config.connections);
  await fastify.register(jsonBody);
  await fastify.register(headRoutes); // before route-registry, which then records the HEAD it adds
  await fastify.register(routeRegistry); // before any route, so 405 knows every path
  await fastify.register(notFound); // before authentication: its hook sends a trailing-slash redirect before any guard runs
  // Users, keys, the bearer guard, request.principal and the route policy; a bad file stops the start.
  await fastify.register(authentication, { ...config.auth, providerKeyTimings: options.providerKeyTimings });
  await fastify.register(validation); // before any route: it compiles each route's validator
  // Serves /metrics; chaos counts into it.
  const countBooks = () => fastify.bookStore.count();
  await fastify.register(metrics, { countBooks, completion: options.completion, traceIdOf: tracing?.traceIdOf });
  // Starts once the server listens and stops in preClose, before the server closes.
  await fastify.register(trafficGenerator, {
    enabled: config.trafficGeneratorEnabled,
    nextDelayMs: options.trafficDelayMs,
  });

  // 4. Routes (the prefix is the folder path)
  await fastify.register(root);
  await fastify.register(docs);
  await fastify.register(favicon);
  await fastify.register(token);
  await fastify.register(jwks);
  await fastify.register(monitoring, { prefix: '/api' });
  await fastify.register(books, { prefix: '/api/v1/books' });
}

/** A ready-to-listen (or inject) Fastify instance with the app registered. */
export async function buildApp(options: AppOptions & { logger?: FastifyBaseLogger }): Promise<FastifyInstance> {
  const completion = new RequestCompletion();
  const fastify = Fastify(serverOptions(options.config, options.logger, completion));
  await fastify.register(fp(app), { ...options, completion });
  await fastify.ready();
  return fastify;
}
