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
  /** Where JSON lines go: stdout, or a file (the tests). */
  destination: number | string = 1,
): Promise<Logger> {
  if (!stdoutIsTerminal) return pino({ level, mixin }, jsonLineDestination(destination));
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

/**
 * pino's own destination (sonic-boom): lines are written without blocking the event loop, those
 * logged while a write is under way go out together with the next write, and whatever is pending
 * is written synchronously when the process exits.
 *
 * `maxWrite` bounds such a batch. sonic-boom appends each line to the batch's string and measures
 * the whole string's UTF-8 length again on every line, so a batch's cost grows with its square:
 * under load its default of 16 KiB made that measuring one of the service's largest costs
 * (`npm run bench`, docs/performance.md).
 */
function jsonLineDestination(destination: number | string): pino.DestinationStream {
  return pino.destination({ dest: destination, sync: false, maxWrite: LOG_BATCH_BYTES });
}

/** The most bytes of log lines written at once. */
const LOG_BATCH_BYTES = 4096;
