import { hostname } from 'node:os';
import pino, { type Logger } from 'pino';
import type { LogLevel } from './config.js';
import { LogBatchingStream } from './log-batching-stream.js';
import { jsonRequestLines, loggedRequestLines, type RequestLineWriter } from './request-line.js';

/** The service's logger and how it writes the per-request line. */
export interface ServiceLogger {
  logger: Logger;
  requestLines: RequestLineWriter;
}

/**
 * Coloured, human-readable lines on a terminal; JSON lines (one object per line) when
 * stdout is a file or a pipe, for log collectors.
 */
export async function createLogger(
  level: LogLevel,
  stdoutIsTerminal = process.stdout.isTTY === true,
): Promise<ServiceLogger> {
  // Synchronous writes to fd 1: pino's default destination hands most lines to the libuv
  // thread pool (an fs.write per line), a thread hand-off per request; a direct write costs
  // less, and a line written synchronously is never lost in a crash. Lines are gathered
  // into batches of a few kilobytes in front of it (one write per batch, not per request);
  // the batch is written at exit, after an error line, and within a quarter of a second.
  if (!stdoutIsTerminal) {
    // The destination takes bytes: given a string, sonic-boom measures its UTF-8 length on
    // write and encodes it twice more (the write, then a Buffer.from to account for it).
    // (sonic-boom's types only know strings; in buffer mode its write takes a Buffer.)
    const destination = pino.destination({ dest: 1, sync: true, contentMode: 'buffer' }) as unknown as {
      write(bytes: Buffer): boolean;
    };
    const batching = new LogBatchingStream({ write: (text) => destination.write(Buffer.from(text)) });
    process.once('exit', () => batching.flush());
    // pino's defaults, spelled out: the request lines are written with the same ones (request-line.ts).
    const base = { pid: process.pid, hostname: hostname() };
    const timestamp = pino.stdTimeFunctions.epochTime;
    const logger = pino({ level, base, timestamp }, batching);
    return { logger, requestLines: jsonRequestLines({ logger, stream: batching, base, timestamp }) };
  }
  // Loaded only for a terminal: it is not needed for JSON lines and slows the start down.
  const { default: pretty } = await import('pino-pretty');
  const logger = pino(
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
  return { logger, requestLines: loggedRequestLines(logger) };
}
