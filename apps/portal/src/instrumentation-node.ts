import { ConfigError, loadConfig } from './server/runtime/config';
import { createLogger, logger } from './server/runtime/logger';
import { exitAfterSignalGrace, exitWhenOutputCloses, SHUTDOWN_GRACE_MS } from './server/runtime/exit-guards';

// Before anything else can log: a closed stdout or stderr ends the process instead of looping on
// EPIPE, and a SIGTERM ends it within the grace period whatever requests are still waiting.
exitWhenOutputCloses([process.stdout, process.stderr], (code) => process.exit(code));
exitAfterSignalGrace(
  process,
  SHUTDOWN_GRACE_MS,
  (code) => process.exit(code),
  (graceMs) => createLogger('info').warn(`Shutdown: requests still running after ${graceMs} ms were cut`),
);

// A bad PORTAL_* variable stops the server at start, with a message naming the variable.
try {
  loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  // The configured level is what failed to load, so this one line goes out at the default.
  createLogger('info').fatal(`Configuration error: ${error.message}`);
  process.exit(1);
}

// Traces (docs/operations.md): the SDK is loaded only when an OTLP endpoint is set, and before
// the Kubernetes client and the Azure SDK, whose calls it instruments.
const { tracing } = loadConfig();
if (tracing.enabled) {
  const { startTracing } = await import('./server/telemetry/start-tracing');
  startTracing(tracing, logger());
}

// Prometheus metrics on a port of their own, which the Ingress does not publish.
const { metricsPort } = loadConfig();
if (metricsPort !== undefined) {
  const { startMetricsServer } = await import('./server/telemetry/metrics');
  try {
    await startMetricsServer(metricsPort);
    logger().info({ metricsPort }, `Metrics: GET /metrics on port ${metricsPort}`);
  } catch (error) {
    logger().fatal(`PORTAL_METRICS_PORT ${metricsPort}: ${(error as Error).message}`);
    process.exit(1);
  }
}

// On a cluster, start the watch-fed cache now, so the first page view does not wait for its list.
const { getPlatformBackend } = await import('./server/backends/select-backend');
getPlatformBackend();
