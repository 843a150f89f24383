import { MAX_REQUEST_ID_LENGTH } from '@books/shared-rules';

/**
 * Response headers the server really sends, as reusable OpenAPI header components, and the
 * statuses that carry each one. completeDocument() adds them to every documented response.
 */
export const HEADER_COMPONENTS = {
  'X-Request-ID': {
    description: `The request id: an incoming X-Request-ID of 1-${MAX_REQUEST_ID_LENGTH} visible ASCII characters, otherwise a new UUID`,
    schema: { type: 'string', minLength: 1, maxLength: MAX_REQUEST_ID_LENGTH },
  },
  Allow: {
    description: 'The methods this path serves, comma-separated',
    schema: { type: 'string', examples: ['GET, POST'] },
  },
  Location: {
    description: 'Where the resource is: a path on this server',
    schema: { type: 'string', examples: ['/api/v1/books/3fa85f64-5717-4562-b3fc-2c963f66afa6'] },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying',
    schema: { type: 'integer', minimum: 0, examples: [1] },
  },
  'WWW-Authenticate': {
    description: 'The authentication scheme to use',
    schema: { type: 'string', const: 'Bearer' },
  },
} as const;

export type HeaderName = keyof typeof HEADER_COMPONENTS;

/**
 * Which headers every response of a status carries, beside X-Request-ID (every response).
 * Retry-After on a 503 depends on the cause (a forced 503 or a database outage has it, "token
 * login is not configured" does not), so a route declares it there itself.
 */
export const HEADERS_BY_STATUS: Readonly<Record<string, readonly HeaderName[]>> = {
  '307': ['Location'],
  '401': ['WWW-Authenticate'],
  '405': ['Allow'],
  '429': ['Retry-After'],
};
