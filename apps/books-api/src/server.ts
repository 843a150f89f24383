import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger } from './logger.js';

/** Shutdown waits this long for requests in flight, then gives up (exit 1). */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Process concerns only: configuration, the logger, listening and shutdown.
 * Everything the service does lives in app.ts.
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const logger = await createLogger(config.logLevel);
  const app = await buildApp({ config, logger });
  // Signals are handled before listening: a SIGTERM that arrives just after the
  // "listening" line must still close gracefully instead of killing the process.
  registerShutdown(app);
  await app.listen({ host: config.host, port: config.port });
}

function registerShutdown(app: FastifyInstance): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, `${signal} received: closing (requests in flight will finish)`);
    const timer = setTimeout(() => {
      app.log.error('shutdown grace period exceeded, exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    timer.unref();
    // close() stops accepting, lets requests in flight finish, then runs onClose hooks.
    app.close().then(
      () => {
        app.log.info('closed');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'error while closing');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
