import { Busboy, type BusboyInstance } from '@fastify/busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { malformedBody, payloadTooLarge, type HttpError } from '../../errors.js';

interface MultipartFormLimits {
  /** The whole body, boundaries and part headers included. */
  readonly totalBytes: number;
  readonly fields: number;
  /** One field's value. */
  readonly fieldBytes: number;
}

/** Field names are short words; a longer one is not a form this service reads. */
const FIELD_NAME_BYTES = 100;

/** The fields of a multipart form: the last value of each name, on an object with no prototype. */
type MultipartFields = Record<string, string>;

function declaredLength(request: FastifyRequest): number | undefined {
  const header = request.headers['content-length'];
  return header === undefined ? undefined : Number(header);
}

/**
 * Reads `multipart/form-data` text fields with busboy, enforcing every limit while the body
 * streams in: the total size (a declared Content-Length over it is refused before reading), the
 * number of fields, each field's size, and no file parts at all. A limit answers 413 and stops
 * reading (the 413 closes the connection, so the rest is never read); a body busboy cannot
 * parse (no boundary, truncated) answers 400, as FastAPI does.
 *
 * Registered in the scope of the routes that read forms; other routes keep answering 415.
 */
export function registerMultipartFormBody(scope: FastifyInstance, limits: MultipartFormLimits): void {
  scope.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    const tooLarge = (reason?: string) => payloadTooLarge(limits.totalBytes, reason);
    const length = declaredLength(request);
    if (length !== undefined && length > limits.totalBytes) {
      done(tooLarge());
      return;
    }

    let parser: BusboyInstance;
    try {
      parser = Busboy({
        headers: request.headers as { 'content-type': string },
        limits: {
          fieldNameSize: FIELD_NAME_BYTES,
          fieldSize: limits.fieldBytes,
          fields: limits.fields,
          files: 0,
          parts: limits.fields,
        },
      });
    } catch {
      // busboy refuses the Content-Type itself, e.g. a multipart type without a boundary.
      done(malformedBody());
      return;
    }

    const fields: MultipartFields = Object.create(null) as MultipartFields;
    let received = 0;
    let settled = false;

    const stopReading = (stream: Readable) => {
      stream.unpipe(parser);
      stream.removeListener('data', count);
      stream.pause();
    };
    const finish = (error: HttpError | null) => {
      if (settled) return;
      settled = true;
      stopReading(payload);
      if (error === null) done(null, fields);
      else done(error);
    };
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.totalBytes) finish(tooLarge());
    };

    parser.on('field', (name, value, nameTruncated, valueTruncated) => {
      if (nameTruncated) return finish(tooLarge(`a field name is over ${FIELD_NAME_BYTES} bytes`));
      if (valueTruncated) return finish(tooLarge(`the field '${name}' is over ${limits.fieldBytes} bytes`));
      fields[name] = value;
    });
    parser.on('file', (_name, stream) => {
      stream.resume();
      finish(tooLarge('file parts are not accepted'));
    });
    parser.on('filesLimit', () => finish(tooLarge('file parts are not accepted')));
    parser.on('fieldsLimit', () => finish(tooLarge(`more than ${limits.fields} fields`)));
    parser.on('partsLimit', () => finish(tooLarge(`more than ${limits.fields} fields`)));
    parser.on('error', () => finish(malformedBody()));
    parser.on('finish', () => finish(null));

    payload.on('data', count);
    payload.on('error', () => finish(malformedBody()));
    payload.pipe(parser);
  });
}
