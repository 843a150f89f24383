import fp from 'fastify-plugin';
import {
  createMemoryLoginThrottle,
  type LoginThrottle,
  type LoginThrottleSettings,
} from '../../auth/login-throttle.js';
import { createPostgresLoginThrottle } from '../../auth/postgres-login-throttle.js';

declare module 'fastify' {
  interface FastifyInstance {
    loginThrottle: LoginThrottle;
  }
}

export interface LoginThrottlePluginOptions {
  readonly settings: LoginThrottleSettings;
  /** A ready throttle (tests); by default the database's when there is one, else this process's memory. */
  readonly throttle?: LoginThrottle | undefined;
  /** How long a login waits for a database that is still connecting (DATABASE_WAIT_TIMEOUT_SECONDS). */
  readonly databaseWaitTimeoutMs?: number | undefined;
}

/** The failed-login throttle POST /token reserves an attempt with before it checks a password. */
export default fp<LoginThrottlePluginOptions>(
  async (fastify, { settings, throttle, databaseWaitTimeoutMs }) => {
    const database = fastify.postgres;
    // With DATABASE_URL the failed-login counts live in the database, so every replica shares them.
    const chosen =
      throttle ??
      (database === null
        ? createMemoryLoginThrottle(settings)
        : createPostgresLoginThrottle(database.sql, settings, {
            isReady: () => database.store.isReady(),
            waitTimeoutMs: databaseWaitTimeoutMs,
          }));
    fastify.decorate('loginThrottle', chosen);
  },
  { name: 'login-throttle', dependencies: ['book-store'] },
);
