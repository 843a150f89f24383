import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger } from './logger.js';
import { LogOutput } from './log-output.js';
import type { Tracing } from './telemetry/tracing-hooks.js';

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

  // The OpenTelemetry SDK is loaded only when tracing is on: off, it costs nothing at all.
  const tracingModules = config.tracing.enabled
    ? await Promise.all([import('./telemetry/log-trace-ids.js'), import('./telemetry/tracing.js')])
    : undefined;
  const logger = await createLogger(config.logLevel, undefined, tracingModules?.[0].traceIdsMixin);
  const logOutput = new LogOutput(logger);
  const tracing =
    tracingModules === undefined || !config.tracing.enabled
      ? undefined
      : tracingModules[1].startTracing(config.tracing, logger);
  const app = await buildApp({ config, logger, tracing });
  // Signals are handled before listening: a SIGTERM that arrives just after the
  // "listening" line must still close gracefully instead of killing the process.
  registerShutdown(app, logOutput, config.connections.shutdownTimeoutMs, tracing);
  await app.listen({ host: config.host, port: config.port });
}

/** The longest the exit waits for the log's last lines to be written. */
const LOG_END_TIMEOUT_MS = 1000;

function registerShutdown(
  app: FastifyInstance,
  logOutput: LogOutput,
  shutdownTimeoutMs: number,
  tracing?: Tracing,
): void {
  let closing = false;
  // The log's pending lines are written (or found unwritable) before the process exits.
  const exit = (code: number) => {
    void logOutput.end(LOG_END_TIMEOUT_MS).then(() => process.exit(code));
  };
  /** Closes gracefully; exits with `code` once closed (1 when the close itself failed). */
  const shutdown = (reason: string, code: number) => {
    if (closing) return;
    closing = true;
    app.log.info({ reason }, `${reason}: closing (requests in flight will finish)`);
    const timer = setTimeout(() => {
      // Requests still running after SHUTDOWN_TIMEOUT_SECONDS are cut, so the process always
      // ends in bounded time. That is the configured shutdown, not a failure: the exit code stays the shutdown's.
      app.server.getConnections((_error, connections) => {
        app.log.warn(
          { connections, shutdownTimeoutSeconds: shutdownTimeoutMs / 1000 },
          'shutdown timeout exceeded: closing the connections that remain',
        );
        app.server.closeAllConnections();
        exit(code);
      });
    }, shutdownTimeoutMs);
    timer.unref();
    // close() stops accepting and closes idle keep-alive connections at once; requests in flight,
    // and requests arriving on connections still open, are answered with Connection: close
    // (return503OnClosing is off, app.ts); then the onClose hooks run.
    // The spans still queued go out after the last request, before the process exits.
    app
      .close()
      .then(async () => {
        await tracing?.shutdown().catch(() => undefined);
      })
      .then(
        () => {
          app.log.info('closed');
          exit(code);
        },
        (error: unknown) => {
          app.log.error({ err: error }, 'error while closing');
          exit(1);
        },
      );
  };
  const onSignal = (signal: NodeJS.Signals) => shutdown(`${signal} received`, 0);
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  // Nobody reads the log any more (the parent died, the collector went away): a server that cannot
  // be watched stops, and the exit code says it was not asked to, so a supervisor starts it again.
  void logOutput.closed.then(() => shutdown('log stream closed', 1));
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
