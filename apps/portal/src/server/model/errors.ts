import 'server-only';
import type { FieldErrors } from '@/lib/platform/types';

/**
 * The catalogue of platform errors. Each carries the HTTP status it travels as; every route
 * handler turns them into the contract's `{"error": "...", "fields"?: {...}}` body through
 * errorResponse() in src/server/http/error-response.ts, and nowhere else.
 */
const PLATFORM_ERROR = Symbol.for('books-portal.platform-error');

export class PlatformError extends Error {
  readonly status: number = 500;
  /** Whether the message may be shown to the caller (5xx messages from deep inside are not). */
  readonly expose: boolean = true;
  readonly fields?: FieldErrors;
  readonly [PLATFORM_ERROR] = true;
  /** Sent as Retry-After: when asking again may succeed. */
  readonly retryAfterSeconds?: number;

  constructor(message: string, options?: { cause?: unknown; fields?: FieldErrors; retryAfterSeconds?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    if (options?.fields) this.fields = options.fields;
    if (options?.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /**
   * The process-wide cluster cache (kubernetes/cluster-cache.ts) is shared by every copy of the server
   * modules Next.js loads, so the errors it reports may come from another copy of this class. The base
   * class, which error handlers check, recognises those by their mark; subclasses keep plain instanceof.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    return (
      this === PlatformError &&
      typeof value === 'object' &&
      value !== null &&
      (value as { [PLATFORM_ERROR]?: unknown })[PLATFORM_ERROR] === true
    );
  }
}

/** 400: the request (or the object built from it) was rejected; fields say where. */
export class InvalidRequestError extends PlatformError {
  override readonly status = 400;
}

/** 401: no signed-in user; the body is exactly the contract's `{"error":"Sign-in required"}`. */
export class SignInRequiredError extends PlatformError {
  override readonly status = 401;

  constructor() {
    super('Sign-in required');
  }
}

/** 403: the caller, or the portal's own service account, may not do this. */
export class ForbiddenError extends PlatformError {
  override readonly status = 403;
}

/** 404: no such resource. */
export class NotFoundError extends PlatformError {
  override readonly status = 404;
}

/** 409: a resource with that name exists already (or is still being deleted). */
export class ConflictError extends PlatformError {
  override readonly status = 409;
}

/** 413: the request body is larger than the portal accepts. */
export class PayloadTooLargeError extends PlatformError {
  override readonly status = 413;
}

/** 415: a mutating request whose body is not JSON. */
export class UnsupportedMediaTypeError extends PlatformError {
  override readonly status = 415;
}

/** 429: the requester reached a create limit; retryAfterSeconds says when to try again. */
export class TooManyRequestsError extends PlatformError {
  override readonly status = 429;

  constructor(message: string, retryAfterSeconds: number) {
    super(message, { retryAfterSeconds });
  }
}

/** 503: the platform cluster cannot be reached or is not configured. The message says which. */
export class PlatformUnavailableError extends PlatformError {
  override readonly status = 503;
}

/** 502/504 and other upstream failures whose details must not reach the caller. */
export class UpstreamError extends PlatformError {
  override readonly status: number;
  override readonly expose = false;

  constructor(message: string, options?: { cause?: unknown; status?: number }) {
    super(message, options);
    this.status = options?.status ?? 502;
  }
}
