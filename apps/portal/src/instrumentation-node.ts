import { ConfigError, loadConfig } from './server/config';

// A bad PORTAL_* variable stops the server at start, with a message naming the variable.
try {
  loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Configuration error: ${error.message}`);
  process.exit(1);
}
