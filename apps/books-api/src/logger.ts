import pino, { type Logger, type LoggerOptions } from 'pino';
import type { LogLevel } from './config.js';

/**
 * Coloured, human-readable lines on a terminal; JSON lines (one object per line) when
 * stdout is a file or a pipe, for log collectors.
 */
export async function createLogger(
  level: LogLevel,
  stdoutIsTerminal = process.stdout.isTTY === true,
  /** Fields added to every line (trace ids while tracing is on: telemetry/log-trace-ids.ts). */
  mixin?: LoggerOptions['mixin'],
): Promise<Logger> {
  // pino's own destination: lines are written to fd 1 without blocking, those logged while a
  // write is under way go out together with the next, and whatever is pending is written
  // synchronously when the process exits.
  if (!stdoutIsTerminal) return pino({ level, mixin });
  // Loaded only for a terminal: it is not needed for JSON lines and slows the start down.
  const { default: pretty } = await import('pino-pretty');
  return pino(
    { level, mixin },
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
