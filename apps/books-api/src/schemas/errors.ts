import Type from 'typebox';

const HTTPError = Type.Object(
  { detail: Type.String() },
  { $id: 'HTTPError', title: 'HTTPError', description: 'Simple error body' },
);

const ValidationError = Type.Object(
  {
    type: Type.String({ description: 'Error kind, e.g. string_too_short' }),
    loc: Type.Array(Type.Union([Type.String(), Type.Integer()]), {
      description: 'Location: body, query, path or header, then the field',
    }),
    msg: Type.String(),
    input: Type.Unknown({ description: 'The offending input' }),
    ctx: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { $id: 'ValidationError', title: 'ValidationError' },
);

const HTTPValidationError = Type.Object(
  { detail: Type.Array(Type.Ref('ValidationError')) },
  { $id: 'HTTPValidationError', title: 'HTTPValidationError', description: 'Request validation failure (422)' },
);

export const errorSchemas = [HTTPError, ValidationError, HTTPValidationError];

const httpError = (description: string) => ({ ...Type.Ref('HTTPError'), description });

/**
 * Error responses to spread into a route's `response` schema, so the OpenAPI document
 * lists them. Every route can answer 405 and 422-free routes still document 404.
 */
export const errorResponses = {
  notFound: { 404: httpError('Not Found') },
  methodNotAllowed: { 405: httpError('Method Not Allowed (see the Allow header)') },
  validation: { 422: { ...Type.Ref('HTTPValidationError'), description: 'Validation Error' } },
  /** DATABASE_URL only: the database is unreachable, or its migrations have not finished. */
  databaseUnavailable: {
    503: {
      ...httpError('Database unavailable: with DATABASE_URL, the database cannot answer now (`Retry-After`)'),
      headers: { 'Retry-After': { type: 'integer', minimum: 0, description: 'Seconds to wait before retrying' } },
    },
  },
  jsonBody: {
    413: httpError('Request body too large'),
    415: httpError('Unsupported media type'),
  },
} as const;
