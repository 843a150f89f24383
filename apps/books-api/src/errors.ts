/**
 * The error catalogue. Anything a handler, hook or service wants to answer with an
 * error status throws one of these; the single error handler (plugins/app/errors.ts)
 * turns it into the contract's body. The `detail` of an HttpError is public by
 * construction, so it is sent as-is even for a 5xx; any other error becomes a
 * generic 500 and its message is only logged.
 */

export type Headers = Readonly<Record<string, string>>;

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    readonly headers: Headers = {},
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}

/** One entry of a 422 body, in Pydantic v2's shape. */
export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** 422 with the list of every invalid field of the request. */
export class RequestValidationError extends Error {
  readonly statusCode = 422;
  constructor(readonly issues: ValidationIssue[]) {
    super('Request validation failed');
    this.name = 'RequestValidationError';
  }
}

export const badRequest = (detail: string, headers?: Headers) => new HttpError(400, detail, headers);
export const unauthorized = (detail: string, headers: Headers = { 'WWW-Authenticate': 'Bearer' }) =>
  new HttpError(401, detail, headers);
export const forbidden = (detail: string) => new HttpError(403, detail);
export const notFound = (detail = 'Not Found') => new HttpError(404, detail);
export const bookNotFound = () => notFound('Book not found');
export const methodNotAllowed = (allowed: readonly string[]) =>
  new HttpError(405, 'Method Not Allowed', { Allow: allowed.join(', ') });
/**
 * The rest of a refused body is never read: the answer closes the connection, so the client
 * cannot make the server read (or a keep-alive connection carry) what is left of it.
 */
const CLOSE_AFTER_ANSWER = { Connection: 'close' } as const;
/** 413; `reason` names the limit a multipart form broke, otherwise the total size limit is given. */
export const payloadTooLarge = (limitBytes: number, reason = `the limit is ${limitBytes} bytes`) =>
  new HttpError(413, `Request body is too large: ${reason}`, CLOSE_AFTER_ANSWER);
/** A form body that cannot be parsed (FastAPI's wording and status). */
export const malformedBody = () => new HttpError(400, 'There was an error parsing the body', CLOSE_AFTER_ANSWER);
export const unsupportedMediaType = (received: string | undefined, accepted: readonly string[]) =>
  new HttpError(
    415,
    `Unsupported media type ${received === undefined ? '(none)' : `'${received}'`}: this endpoint accepts ${accepted.join(', ')}`,
  );
export const serviceUnavailable = (detail: string, headers?: Headers) => new HttpError(503, detail, headers);
/** The database behind the store cannot answer now; clients may retry after this many seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;
export const databaseUnavailable = () =>
  serviceUnavailable('Database unavailable', { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
export const internalServerError = () => new HttpError(500, 'Internal Server Error');
