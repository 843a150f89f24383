import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import type { LogBatchingStream } from './log-batching-stream.js';

/** The facts of the one log line each request gets. */
export interface RequestLogFields {
  reqId: string;
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  size: number;
  /** Unknown when the client's socket is already gone as the request completes: then left out, as pino leaves out undefined. */
  client: string | undefined;
  /** The error catalogue's code (src/errors.ts) of an error answer; absent on success. */
  errorCode?: string | undefined;
}

export type RequestLineWriter = (fields: RequestLogFields) => void;

// pino exports the symbols of its internals (pino.symbols) for code that writes its lines.
const symbols = pino.symbols as unknown as Record<string, symbol>;

/** The pieces of a plain pino logger that its info line is built from. */
interface LinePieces {
  levelPrefix: string;
  time: () => string;
  chindings: () => string;
  end: string;
  stream: { write(line: string): unknown; writeLater?: LogBatchingStream['writeLater'] };
  isInfoEnabled: () => boolean;
}

const INFO = 30;

/** Printable ASCII without `"` and `\\`: JSON.stringify only adds the quotes to such text. */
const PLAIN_JSON_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * A string as JSON.stringify writes it. Request ids, methods, paths and addresses are nearly
 * always plain text, which is quoted as it is; the general call was the costliest part of the
 * line (seven per request).
 */
const text = (value: string): string => (PLAIN_JSON_TEXT.test(value) ? `"${value}"` : JSON.stringify(value));

/** A number as pino writes one: non-finite numbers become null. */
const number = (value: number) => (Number.isFinite(value) ? value : null);

function message(fields: RequestLogFields): string {
  const { method, path, status, latencyMs, size, client, reqId } = fields;
  return `${method} ${path} ${status} ${latencyMs}ms ${size}B ${client ?? '-'} id=${reqId}`;
}

/** The pieces, when the line pino would write can be built here byte for byte: a plain pino logger. */
function linePieces(logger: FastifyBaseLogger): LinePieces | undefined {
  const internal = (name: string): unknown => (logger as unknown as Record<symbol, unknown>)[symbols[name] ?? Symbol()];
  const levels = internal('lsCacheSym') as Record<number, unknown> | undefined;
  const time = internal('timeSym');
  const stream = internal('streamSym') as { write?: unknown; [key: symbol]: unknown } | undefined;
  const formatters = internal('formattersSym') as { log?: unknown } | undefined;
  const hooks = internal('hooksSym') as { streamWrite?: unknown } | undefined;
  const isLevelEnabled = (logger as { isLevelEnabled?: unknown }).isLevelEnabled;
  const levelPrefix = levels?.[INFO];
  const end = internal('endSym');
  const plain =
    typeof levelPrefix === 'string' &&
    typeof end === 'string' &&
    typeof time === 'function' &&
    typeof internal('chindingsSym') === 'string' &&
    typeof stream?.write === 'function' &&
    stream[symbols['needsMetadataGsym'] ?? Symbol()] !== true &&
    internal('messageKeySym') === 'msg' &&
    !internal('mixinSym') &&
    !internal('nestedKeySym') &&
    !internal('msgPrefixSym') &&
    !formatters?.log &&
    !hooks?.streamWrite &&
    typeof isLevelEnabled === 'function';
  if (!plain) return undefined;
  return {
    levelPrefix,
    time: time.bind(logger) as () => string,
    // Read on every line: a child logger made later never changes the root's, but stay exact.
    chindings: () => internal('chindingsSym') as string,
    end,
    stream: stream as LinePieces['stream'],
    isInfoEnabled: () => (isLevelEnabled as (level: string) => boolean).call(logger, 'info'),
  };
}

/** A request's facts and the time they were logged at, in pino's form (`,"time":…`). */
interface TimedFields {
  fields: RequestLogFields;
  time: string;
}

/**
 * Writes the per-request line. For a plain pino logger it builds the exact bytes
 * `logger.info(fields, message)` would write, with one template and no intermediate
 * object walk, and hands them to the logger's own stream: the per-request log line was
 * the largest single cost of a request. When that stream batches (the service's
 * LogBatchingStream), the line is only formatted when its batch is written, together with
 * the others. Any other logger gets the ordinary call.
 */
export function requestLineWriter(logger: FastifyBaseLogger): RequestLineWriter {
  const pieces = linePieces(logger);
  if (pieces === undefined) return (fields) => logger.info(fields, message(fields));
  const { levelPrefix, time, chindings, end, stream, isInfoEnabled } = pieces;
  const format = ({ fields, time }: TimedFields): string => {
    const { reqId, method, path, client, errorCode } = fields;
    const msg = message(fields);
    const numbers = `,"status":${number(fields.status)},"latencyMs":${number(fields.latencyMs)},"size":${number(fields.size)}`;
    const errorPart = errorCode === undefined ? '' : `,"errorCode":${text(errorCode)}`;
    // The message holds every other text field, and numbers print as plain ASCII: one test of it
    // tells whether any text needs escaping (nearly never; then each is quoted on its own).
    if (PLAIN_JSON_TEXT.test(msg)) {
      return (
        `${levelPrefix}${time}${chindings()},"reqId":"${reqId}","method":"${method}","path":"${path}"${numbers}` +
        (client === undefined ? '' : `,"client":"${client}"`) +
        `${errorPart},"msg":"${msg}"${end}`
      );
    }
    return (
      `${levelPrefix}${time}${chindings()},"reqId":${text(reqId)},"method":${text(method)},"path":${text(path)}${numbers}` +
      (client === undefined ? '' : `,"client":${text(client)}`) +
      `${errorPart},"msg":${JSON.stringify(msg)}${end}`
    );
  };
  const writeLater = stream.writeLater?.bind(stream);
  if (writeLater !== undefined) {
    return (fields) => {
      if (isInfoEnabled()) writeLater(format, { fields, time: time() });
    };
  }
  return (fields) => {
    if (isInfoEnabled()) stream.write(format({ fields, time: time() }));
  };
}
