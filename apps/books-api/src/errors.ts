/**
 * The error catalogue. Every error the API answers has a stable code (`BOOKS_ERR_*`) here,
 * with its status and public detail, and is built by one of the factories below: routes,
 * hooks and services throw what a factory returns, never `new HttpError(...)` (lint enforces
 * it). The single error handler (plugins/app/errors.ts) turns it into the contract's body,
 * `{"detail": ...}`; the code travels in the request's log line, never in the body (the
 * contract fixes the bodies). The error table in docs/errors-and-limits.md lists every code; a test checks it.
 */

type Status = number | '4xx' | 'forced';

interface CatalogueEntry {
  /** The answer's status; '4xx' keeps the framework's, 'forced' is the one X-Force-Error asks for. */
  readonly status: Status;
  /** The public detail as documented; `<...>` marks the part that varies. */
  readonly detail: string;
}

export const ERROR_CATALOGUE = {
  BOOKS_ERR_INVALID_URL: { status: 400, detail: 'Invalid URL' },
  BOOKS_ERR_INVALID_URL_ENCODING: { status: 400, detail: 'Invalid URL encoding' },
  BOOKS_ERR_BAD_REQUEST: { status: 400, detail: 'Bad request: the request could not be parsed' },
  BOOKS_ERR_MISSING_HOST: { status: 400, detail: 'Bad request: an HTTP/1.1 request must carry a Host header' },
  BOOKS_ERR_CONNECT_NOT_SUPPORTED: {
    status: 400,
    detail: 'Bad request: CONNECT is not supported (this server is not a proxy)',
  },
  BOOKS_ERR_BODY_NOT_PARSED: { status: 400, detail: 'There was an error parsing the body' },
  BOOKS_ERR_CONTENT_LENGTH_MISMATCH: { status: 400, detail: 'Request body size did not match Content-Length' },
  BOOKS_ERR_FORCE_ERROR_NOT_INTEGER: { status: 400, detail: 'X-Force-Error must be an integer status code' },
  BOOKS_ERR_FORCE_ERROR_NOT_APPROVED: { status: 400, detail: 'X-Force-Error is limited to approved demo codes' },
  BOOKS_ERR_UNSTORABLE_TEXT: {
    status: 400,
    detail: 'The <field> contains a character this store cannot hold (U+0000)',
  },
  BOOKS_ERR_CLIENT_ERROR: { status: '4xx', detail: "<the framework's message>" },
  BOOKS_ERR_NOT_AUTHENTICATED: { status: 401, detail: 'Not authenticated' },
  BOOKS_ERR_INVALID_TOKEN: { status: 401, detail: 'Invalid token' },
  BOOKS_ERR_TOKEN_EXPIRED: { status: 401, detail: 'Token expired' },
  BOOKS_ERR_INCORRECT_CREDENTIALS: { status: 401, detail: 'Incorrect credentials' },
  BOOKS_ERR_INSUFFICIENT_SCOPE: { status: 403, detail: 'Insufficient scope' },
  BOOKS_ERR_NOT_FOUND: { status: 404, detail: 'Not Found' },
  BOOKS_ERR_BOOK_NOT_FOUND: { status: 404, detail: 'Book not found' },
  BOOKS_ERR_NO_BOOKS: { status: 404, detail: 'No books available' },
  BOOKS_ERR_METHOD_NOT_ALLOWED: { status: 405, detail: 'Method Not Allowed' },
  BOOKS_ERR_REQUEST_TIMEOUT: { status: 408, detail: 'Request timeout: the request was not received in time' },
  BOOKS_ERR_BODY_TOO_LARGE: {
    status: 413,
    detail: 'Request body is too large: <the limit is N bytes, or the form limit it broke>',
  },
  BOOKS_ERR_UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    detail: "Unsupported media type '<type>': this endpoint accepts <types>",
  },
  BOOKS_ERR_EXPECTATION_FAILED: {
    status: 417,
    detail: 'Expectation failed: only "Expect: 100-continue" is supported',
  },
  BOOKS_ERR_VALIDATION: { status: 422, detail: '<list of Pydantic v2 entries>' },
  BOOKS_ERR_TOO_MANY_LOGIN_ATTEMPTS: {
    status: 429,
    detail: 'Too many failed login attempts; try again in <seconds> seconds',
  },
  BOOKS_ERR_HEADERS_TOO_LARGE: { status: 431, detail: 'Request header fields too large' },
  BOOKS_ERR_INTERNAL: { status: 500, detail: 'Internal Server Error' },
  BOOKS_ERR_DATABASE_UNAVAILABLE: { status: 503, detail: 'Database unavailable' },
  BOOKS_ERR_TOO_MANY_REQUESTS_ON_CONNECTION: {
    status: 503,
    detail: 'Too many requests on this connection; send it on a new connection',
  },
  BOOKS_ERR_TOKEN_LOGIN_NOT_CONFIGURED: { status: 503, detail: 'Token login is not configured' },
  BOOKS_ERR_LOGIN_VERIFICATIONS_BUSY: {
    status: 503,
    detail: 'Too many logins are being checked; try again in 1 second',
  },
  BOOKS_ERR_IDENTITY_PROVIDER_UNAVAILABLE: { status: 503, detail: 'Identity provider unavailable' },
  BOOKS_ERR_SIMULATED: { status: 'forced', detail: 'Simulated error <status>' },
} as const satisfies Record<`BOOKS_ERR_${string}`, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

type Headers = Readonly<Record<string, string>>;

export class HttpError extends Error {
  constructor(
    readonly code: ErrorCode,
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
  readonly code = 'BOOKS_ERR_VALIDATION' satisfies ErrorCode;
  readonly statusCode = 422;
  constructor(readonly issues: ValidationIssue[]) {
    super('Request validation failed');
    this.name = 'RequestValidationError';
  }
}

type FixedCode = {
  [Code in ErrorCode]: (typeof ERROR_CATALOGUE)[Code]['status'] extends number
    ? (typeof ERROR_CATALOGUE)[Code]['detail'] extends `${string}<${string}`
      ? never
      : Code
    : never;
}[ErrorCode];

/** An error whose status and detail are exactly the catalogue's. */
function fixed(code: FixedCode, headers?: Headers): HttpError {
  const { status, detail } = ERROR_CATALOGUE[code];
  return new HttpError(code, status, detail, headers);
}

const BEARER_CHALLENGE: Headers = { 'WWW-Authenticate': 'Bearer' };

// 400
export const invalidUrl = () => fixed('BOOKS_ERR_INVALID_URL');
export const invalidUrlEncoding = () => fixed('BOOKS_ERR_INVALID_URL_ENCODING');
export const bodyNotParsed = () => fixed('BOOKS_ERR_BODY_NOT_PARSED');
export const contentLengthMismatch = () => fixed('BOOKS_ERR_CONTENT_LENGTH_MISMATCH');
export const forceErrorNotInteger = () => fixed('BOOKS_ERR_FORCE_ERROR_NOT_INTEGER');
export const forceErrorNotApproved = () => fixed('BOOKS_ERR_FORCE_ERROR_NOT_APPROVED');
/** A 4xx raised by Fastify or a third-party plugin that has no entry of its own: its status and message. */
export const clientError = (status: number, message: string) =>
  new HttpError('BOOKS_ERR_CLIENT_ERROR', status, message);
// 401 (with the bearer challenge) and 403
export const notAuthenticated = () => fixed('BOOKS_ERR_NOT_AUTHENTICATED', BEARER_CHALLENGE);
export const invalidToken = () => fixed('BOOKS_ERR_INVALID_TOKEN', BEARER_CHALLENGE);
export const tokenExpired = () => fixed('BOOKS_ERR_TOKEN_EXPIRED', BEARER_CHALLENGE);
export const incorrectCredentials = () => fixed('BOOKS_ERR_INCORRECT_CREDENTIALS', BEARER_CHALLENGE);
export const insufficientScope = () => fixed('BOOKS_ERR_INSUFFICIENT_SCOPE');
// 404, 405
export const notFound = () => fixed('BOOKS_ERR_NOT_FOUND');
export const bookNotFound = () => fixed('BOOKS_ERR_BOOK_NOT_FOUND');
export const noBooks = () => fixed('BOOKS_ERR_NO_BOOKS');
export const methodNotAllowed = (allowed: readonly string[]) =>
  fixed('BOOKS_ERR_METHOD_NOT_ALLOWED', { Allow: allowed.join(', ') });
/**
 * The rest of a refused body is never read: the answer closes the connection, so the client
 * cannot make the server read (or a keep-alive connection carry) what is left of it.
 */
const CLOSE_AFTER_ANSWER: Headers = { Connection: 'close' };
/** A form body that cannot be parsed (FastAPI's wording and status); the rest of it is not read. */
export const malformedBody = () => fixed('BOOKS_ERR_BODY_NOT_PARSED', CLOSE_AFTER_ANSWER);
/** An HTTP/1.1 request without Host; nothing after it on the connection is trusted. */
export const missingHost = () => fixed('BOOKS_ERR_MISSING_HOST', CLOSE_AFTER_ANSWER);
/** A stored field holds text the store cannot keep (PostgreSQL text cannot hold U+0000). */
export const unstorableText = (field: string) =>
  new HttpError('BOOKS_ERR_UNSTORABLE_TEXT', 400, `The ${field} contains a character this store cannot hold (U+0000)`);
// 408, 417, 431 and the unparseable request: written by plugins/app/connections.ts before routing.
export const unparseableRequest = () => fixed('BOOKS_ERR_BAD_REQUEST');
export const requestTimeout = () => fixed('BOOKS_ERR_REQUEST_TIMEOUT');
export const expectationFailed = () => fixed('BOOKS_ERR_EXPECTATION_FAILED');
export const headersTooLarge = () => fixed('BOOKS_ERR_HEADERS_TOO_LARGE');
export const connectNotSupported = () => fixed('BOOKS_ERR_CONNECT_NOT_SUPPORTED');
// 413, 415
/** 413; `reason` names the limit a multipart form broke, otherwise the total size limit is given. */
export const payloadTooLarge = (limitBytes: number, reason = `the limit is ${limitBytes} bytes`) =>
  new HttpError('BOOKS_ERR_BODY_TOO_LARGE', 413, `Request body is too large: ${reason}`, CLOSE_AFTER_ANSWER);
export const unsupportedMediaType = (received: string | undefined, accepted: readonly string[]) =>
  new HttpError(
    'BOOKS_ERR_UNSUPPORTED_MEDIA_TYPE',
    415,
    `Unsupported media type ${received === undefined ? '(none)' : `'${received}'`}: this endpoint accepts ${accepted.join(', ')}`,
  );
// 429
export const tooManyLoginAttempts = (retryAfterSeconds: number) =>
  new HttpError(
    'BOOKS_ERR_TOO_MANY_LOGIN_ATTEMPTS',
    429,
    `Too many failed login attempts; try again in ${retryAfterSeconds} seconds`,
    { 'Retry-After': String(retryAfterSeconds) },
  );
// 5xx
export const internalServerError = () => fixed('BOOKS_ERR_INTERNAL');
export const tokenLoginNotConfigured = () => fixed('BOOKS_ERR_TOKEN_LOGIN_NOT_CONFIGURED');
/** The database behind the store cannot answer now; clients may retry after this many seconds. */
const DATABASE_RETRY_AFTER_SECONDS = 2;
export const databaseUnavailable = () =>
  fixed('BOOKS_ERR_DATABASE_UNAVAILABLE', { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
/**
 * A keep-alive connection carried its allowed number of requests; a new connection may retry at
 * once. Never written in practice (plugins/app/connections.ts says why).
 */
export const tooManyRequestsOnConnection = () =>
  fixed('BOOKS_ERR_TOO_MANY_REQUESTS_ON_CONNECTION', { Connection: 'close', 'Retry-After': '0' });
/** The bounded queue of password checks is full; the attempt is not counted. */
export const loginVerificationsBusy = () => fixed('BOOKS_ERR_LOGIN_VERIFICATIONS_BUSY', { 'Retry-After': '1' });
/** A provider token arrived before any of the provider's keys could be fetched; the provider may be back by then. */
export const identityProviderUnavailable = (retryAfterSeconds: number) =>
  fixed('BOOKS_ERR_IDENTITY_PROVIDER_UNAVAILABLE', { 'Retry-After': String(retryAfterSeconds) });
/** Chaos mode: the status X-Force-Error asked for, optionally telling the client when to retry. */
export const simulatedError = (status: number, retryAfterSeconds?: number) =>
  new HttpError(
    'BOOKS_ERR_SIMULATED',
    status,
    `Simulated error ${status}`,
    retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) },
  );
