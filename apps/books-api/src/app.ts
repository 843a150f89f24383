import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyHttpOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Server } from 'node:http';
import type { Config, ConnectionSettings } from './config.js';
import { fastifyTrustProxy, type TrustedProxies } from './trust-proxy.js';
import pino from 'pino';
import { beforeRoutingError, sendError } from './plugins/app/errors.js';
import openapi from './plugins/external/openapi.js';
import bookStorePlugin from './plugins/app/book-store.js';
import errors from './plugins/app/errors.js';
import jsonBody from './plugins/app/json-body.js';
import notFound from './plugins/app/not-found.js';
import authentication, { type ProviderKeyTimings } from './plugins/app/authentication.js';
import loginThrottle from './plugins/app/login-throttle.js';
import { createPostgresLoginThrottle } from './auth/postgres-login-throttle.js';
import requestLog, { RequestCompletion, requestIdFor } from './plugins/app/request-log.js';
import securityHeaders, { NOSNIFF } from './plugins/app/security-headers.js';
import connections, { clientErrorHandler } from './plugins/app/connections.js';
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
import { bookSchemas } from './schemas/book.js';
import { errorSchemas } from './schemas/errors.js';
import { metaSchemas } from './schemas/meta.js';
import type { BookStore } from './store/book-store.js';
import type { LoginThrottle } from './auth/login-throttle.js';

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
}

/** What buildApp hands the app besides the caller's options. */
interface InstanceParts {
  /** The instance's log controller, where the request log and the metrics hear of finished requests. */
  completion: RequestCompletion;
}

/** Longer than any request line Node accepts (its 16 KiB header limit), so the router never refuses a parameter. */
const MAX_PATH_PARAMETER_LENGTH = 64 * 1024;

/** Bodies over this size are refused with 413 before anything is parsed or stored. */
const BODY_LIMIT_BYTES = 1024 * 1024;

/** Options of the Fastify instance itself. */
function serverOptions(
  logger: FastifyBaseLogger | undefined,
  connections: ConnectionSettings,
  completion: RequestCompletion,
  trustedProxies: TrustedProxies = { kind: 'none' },
): FastifyHttpOptions<Server> {
  return {
    // request.ip: the socket's address, or the client a trusted proxy names (TRUST_PROXY).
    trustProxy: fastifyTrustProxy(trustedProxies) as FastifyHttpOptions<Server>['trustProxy'],
    // Always a logger, if need be a disabled one: without one Fastify would not report
    // finished requests to the log controller (see plugins/app/request-log.ts).
    loggerInstance: logger ?? pino({ enabled: false }),
    // plugins/app/request-log.ts writes one line per request instead of Fastify's two.
    logController: completion,
    genReqId: requestIdFor,
    requestIdHeader: false,
    // FastAPI's API routes answer no HEAD they do not declare; plugins/app/head-routes.ts says which routes do.
    exposeHeadRoutes: false,
    // Any path parameter reaches validation, as in FastAPI: a 300-character book id is a 422
    // uuid_parsing, not the router's own 414. Node's header size limit (a 431) bounds the URL
    // well below this, and no route has a regular-expression parameter for the limit to protect.
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    bodyLimit: BODY_LIMIT_BYTES,
    // While the server drains, requests on connections still open are answered (Fastify adds
    // Connection: close, so each connection ends after its answer) instead of a bare 503.
    return503OnClosing: false,
    requestTimeout: connections.requestTimeoutMs,
    keepAliveTimeout: connections.keepAliveTimeoutMs,
    http: {
      headersTimeout: connections.headersTimeoutMs,
      // How often Node looks for requests past their timeouts (its default is 30 s, which let a
      // slow client hold a connection far past the headers timeout).
      connectionsCheckingInterval: 1000,
      // plugins/app/connections.ts answers a missing Host with the contract's body instead.
      requireHostHeader: false,
    },
    // Answers to unparseable requests and timeouts in the contract's shape (Fastify's own has another).
    clientErrorHandler,
    // Errors raised before routing (e.g. a path with broken percent-encoding) never reach the error handler.
    frameworkErrors: function answerBeforeRouting(error, request, reply) {
      reply.header('X-Request-ID', request.id).header(NOSNIFF.name, NOSNIFF.value);
      sendError(beforeRoutingError(error), reply);
    },
  };
}

/**
 * The service as a plugin, in a visible order: third-party plugins, our services,
 * our cross-cutting plugins (which watch routes as they are added), then the routes.
 */
export default async function app(fastify: FastifyInstance, options: AppOptions & InstanceParts): Promise<void> {
  // 1. Third-party plugins
  await fastify.register(openapi);

  // 2. Our services
  fastify.decorate('config', options.config);
  await fastify.register(bookStorePlugin, { store: options.store, database: options.config.database });
  const database = fastify.postgres;
  await fastify.register(loginThrottle, {
    settings: options.config.auth.loginThrottle,
    // With DATABASE_URL the failed-login counts live in the database, so every replica shares them.
    throttle:
      options.loginThrottle ??
      (database === null
        ? undefined
        : createPostgresLoginThrottle(database.sql, options.config.auth.loginThrottle, {
            isReady: () => database.store.isReady(),
            waitTimeoutMs: options.config.database?.waitTimeoutMs,
          })),
  });
  for (const schema of [...errorSchemas, ...bookSchemas, ...metaSchemas]) fastify.addSchema(schema);

  // 3. Our plugins (order matters only where noted)
  await fastify.register(errors);
  // The first onRequest hook: every answer carries the request id, the other hooks' errors included.
  await fastify.register(requestLog);
  await fastify.register(securityHeaders); // nosniff, before any hook that may answer an error
  await fastify.register(connections, options.config.connections);
  await fastify.register(jsonBody);
  await fastify.register(headRoutes); // before route-registry, which then records the HEAD it adds
  await fastify.register(routeRegistry); // before any route, so 405 knows every path
  await fastify.register(notFound); // before authentication: its hook sends a trailing-slash redirect before any guard runs
  // Users, keys, the bearer guard, request.principal and the route policy; a bad file stops the start.
  await fastify.register(authentication, { ...options.config.auth, providerKeyTimings: options.providerKeyTimings });
  await fastify.register(validation); // before any route: it compiles each route's validator
  await fastify.register(metrics, {
    countBooks: () => fastify.bookStore.count(),
    completion: options.completion,
  }); // serves /metrics; chaos counts into it
  // Starts once the server listens and stops in preClose, before the server closes.
  await fastify.register(trafficGenerator, {
    enabled: options.config.trafficGeneratorEnabled,
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
  const fastify = Fastify(
    serverOptions(options.logger, options.config.connections, completion, options.config.trustProxy),
  ).withTypeProvider<TypeBoxTypeProvider>();
  await fastify.register(fp(app), { ...options, completion });
  await fastify.ready();
  return fastify;
}
