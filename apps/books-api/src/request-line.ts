import type { FastifyBaseLogger } from 'fastify';
import type pino from 'pino';

/** The facts of the one log line each request gets (plugins/app/request-log.ts). */
export interface RequestLine {
  readonly reqId: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly latencyMs: number;
  readonly size: number;
  /** Undefined when the client's socket is already gone as the request completes: pino leaves it out. */
  readonly client: string | undefined;
  /** The error catalogue's code (src/errors.ts), on error answers only. */
  readonly errorCode: string | undefined;
}

export type RequestLineWriter = (line: RequestLine) => void;

/** The line's message: it reads well in a terminal, where pino-pretty shows only the message. */
export function requestMessage(line: RequestLine): string {
  const { method, path, status, latencyMs, size, client, reqId } = line;
  return `${method} ${path} ${status} ${latencyMs}ms ${size}B ${client ?? '-'} id=${reqId}`;
}

/** Writes each request's line with `logger.info(fields, message)`: right for any logger. */
export function loggedRequestLines(logger: FastifyBaseLogger): RequestLineWriter {
  return function logRequestLine(line) {
    const { reqId, method, path, status, latencyMs, size, client, errorCode } = line;
    logger.info({ reqId, method, path, status, latencyMs, size, client, errorCode }, requestMessage(line));
  };
}

/** Where the JSON lines go: the service's LogBatchingStream. */
export interface LineStream {
  writeAtLevel(line: string, level: number): void;
}

export interface JsonRequestLinesOptions {
  /** The service's JSON logger, writing to `stream`. */
  readonly logger: pino.Logger;
  readonly stream: LineStream;
  /** The logger's `base` option: the fields every line starts with. */
  readonly base: Readonly<Record<string, string | number>>;
  /** The logger's `timestamp` option: `,"time":…`. */
  readonly timestamp: () => string;
}

/** pino's info level. */
const INFO = 30;

/** Printable ASCII without `"` and `\`: JSON writes such text as it is, between quotes. */
const PLAIN_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * The request line of the service's JSON logger (logger.ts), made with one template: the bytes
 * `logger.info(fields, message)` would write, given the logger's own `base` and `timestamp`
 * options, without pino's general walk over a fields object. It is written once per request,
 * and that walk was a large part of a request's cost (docs/performance.md).
 *
 * The template applies when every text is plain ASCII and every number finite, which requests
 * nearly always are (the message holds all the text but the error code, so one test covers it);
 * any other line goes through `logger.info` itself. test/request-line.test.ts compares both ways
 * on arbitrary lines and fails when the template stops being used.
 */
export function jsonRequestLines({ logger, stream, base, timestamp }: JsonRequestLinesOptions): RequestLineWriter {
  const logged = loggedRequestLines(logger);
  const prefix = `{"level":${INFO}`;
  const bindings = Object.entries(base)
    .map(([key, value]) => `,${JSON.stringify(key)}:${JSON.stringify(value)}`)
    .join('');
  return function writeRequestLine(line) {
    if (!logger.isLevelEnabled('info')) return;
    const message = requestMessage(line);
    const { reqId, method, path, status, latencyMs, size, client, errorCode } = line;
    const plain =
      PLAIN_TEXT.test(message) &&
      (errorCode === undefined || PLAIN_TEXT.test(errorCode)) &&
      Number.isFinite(status) &&
      Number.isFinite(latencyMs) &&
      Number.isFinite(size);
    if (!plain) {
      logged(line);
      return;
    }
    stream.writeAtLevel(
      `${prefix}${timestamp()}${bindings},"reqId":"${reqId}","method":"${method}","path":"${path}"` +
        `,"status":${status},"latencyMs":${latencyMs},"size":${size}` +
        (client === undefined ? '' : `,"client":"${client}"`) +
        (errorCode === undefined ? '' : `,"errorCode":"${errorCode}"`) +
        `,"msg":"${message}"}\n`,
      INFO,
    );
  };
}
