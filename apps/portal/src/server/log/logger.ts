import 'server-only';
import pino, { type DestinationStream, type Logger } from 'pino';
import { loadConfig, type LogLevel } from '../config';

/**
 * JSON lines on stdout, one object per line, for log collectors. Errors go under `err`, which
 * pino serializes with their stack and cause.
 */
export function createLogger(level: LogLevel, destination: DestinationStream = process.stdout): Logger {
  return pino({ level, base: { app: 'portal' }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}

let shared: Logger | undefined;

/** The process's logger, at the configured PORTAL_LOG_LEVEL. */
export function logger(): Logger {
  shared ??= createLogger(loadConfig().logLevel);
  return shared;
}
