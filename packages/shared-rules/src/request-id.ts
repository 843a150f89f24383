/** The longest incoming X-Request-ID kept (the OpenAPI document states it too). */
export const MAX_REQUEST_ID_LENGTH = 128;

/**
 * An incoming X-Request-ID is kept only when it is 1 to MAX_REQUEST_ID_LENGTH visible ASCII
 * characters (0x21-0x7E): anything else (spaces, control characters, non-ASCII, a huge value)
 * could forge log lines or response headers.
 */
const ACCEPTABLE_REQUEST_ID = new RegExp(`^[\\x21-\\x7e]{1,${MAX_REQUEST_ID_LENGTH}}$`);

export function isAcceptableRequestId(value: unknown): value is string {
  return typeof value === 'string' && ACCEPTABLE_REQUEST_ID.test(value);
}

/**
 * The id of a request: the incoming X-Request-ID when it is acceptable, otherwise a new UUID.
 * A header sent twice (Node gives an array) is not acceptable.
 */
export function requestIdFrom(incoming: string | readonly string[] | null | undefined): string {
  return isAcceptableRequestId(incoming) ? incoming : globalThis.crypto.randomUUID();
}
