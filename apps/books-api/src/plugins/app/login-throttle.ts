import fp from 'fastify-plugin';
import {
  createMemoryLoginThrottle,
  type LoginThrottle,
  type LoginThrottleSettings,
} from '../../auth/login-throttle.js';

declare module 'fastify' {
  interface FastifyInstance {
    loginThrottle: LoginThrottle;
  }
}

interface LoginThrottlePluginOptions {
  readonly settings: LoginThrottleSettings;
  /** A ready throttle (a shared one, e.g. in a database); by default this process's memory. */
  readonly throttle?: LoginThrottle | undefined;
}

/** The failed-login throttle POST /token reserves an attempt with before it checks a password. */
export default fp<LoginThrottlePluginOptions>(
  async (fastify, options) => {
    fastify.decorate('loginThrottle', options.throttle ?? createMemoryLoginThrottle(options.settings));
  },
  { name: 'login-throttle' },
);
