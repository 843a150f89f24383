import { ConfigError, loadConfig } from './server/config';
import { createLogger } from './server/log/logger';

// A bad PORTAL_* variable stops the server at start, with a message naming the variable.
try {
  loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  // The configured level is what failed to load, so this one line goes out at the default.
  createLogger('info').fatal(`Configuration error: ${error.message}`);
  process.exit(1);
}

// On a cluster, start the watch-fed cache now, so the first page view does not wait for its list.
const { getPlatformBackend } = await import('./server/platform/select-backend');
getPlatformBackend();
