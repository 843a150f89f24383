import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogLevel } from './config.js';

/**
 * Coloured, human-readable lines on a terminal; JSON lines (one object per line) when
 * stdout is a file or a pipe, for log collectors.
 */
export function createLogger(level: LogLevel, stdoutIsTerminal = process.stdout.isTTY === true): Logger {
  if (!stdoutIsTerminal) return pino({ level });
  return pino(
    { level },
    pretty({
      colorize: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      // The request-log message already says everything; keep each request on one line.
      hideObject: true,
      sync: true,
    }),
  );
}
