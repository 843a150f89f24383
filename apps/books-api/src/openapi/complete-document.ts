import { addPreRoutingResponses, preRoutingComponents } from './pre-routing-responses.js';
import { HEADER_COMPONENTS, HEADERS_BY_STATUS, type HeaderName } from './response-headers.js';

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const headerRef = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` });

/**
 * Finishes the document @fastify/swagger generated from the routes, with what route schemas
 * cannot say: the response headers every answer carries (X-Request-ID, Allow on 405,
 * Location on 307, Retry-After on 429, WWW-Authenticate on 401) as shared components; the
 * answers written before routing (400, 408, 417, 431) as shared responses on every operation;
 * `security: []` on operations that need no token; no body on HEAD answers and redirects;
 * request bodies as references to the shared models they are (BookCreate, BookUpdate).
 */
export function completeDocument<T extends object>(document: T): T {
  const doc = document as JsonObject;
  const components = isObject(doc.components) ? doc.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  doc.components = { ...components, headers: { ...HEADER_COMPONENTS }, responses: preRoutingComponents() };

  for (const item of Object.values(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method) || !isObject(operation)) continue;
      operation.security ??= [];
      referenceSharedBody(operation, schemas);
      const responses = isObject(operation.responses) ? operation.responses : {};
      addPreRoutingResponses(method, responses);
      for (const [status, response] of Object.entries(responses)) {
        // A shared response (components.responses) declares its own headers.
        if (!isObject(response) || '$ref' in response) continue;
        const headers = isObject(response.headers) ? response.headers : {};
        // A header a route declares inline becomes the shared component of the same name.
        for (const name of Object.keys(headers))
          if (name in HEADER_COMPONENTS) headers[name] = headerRef(name as HeaderName);
        response.headers = {
          ...headers,
          'X-Request-ID': headerRef('X-Request-ID'),
          ...Object.fromEntries((HEADERS_BY_STATUS[status] ?? []).map((name) => [name, headerRef(name)])),
        };
        if (method === 'head' || status === '307') delete response.content;
      }
    }
  }
  return document;
}

/** An inline request body schema titled like a shared model becomes a `$ref` to it. */
function referenceSharedBody(operation: JsonObject, schemas: JsonObject): void {
  const body = operation.requestBody;
  if (!isObject(body) || !isObject(body.content)) return;
  for (const media of Object.values(body.content)) {
    if (!isObject(media) || !isObject(media.schema)) continue;
    const title = media.schema.title;
    if (typeof title === 'string' && Object.hasOwn(schemas, title)) {
      media.schema = { $ref: `#/components/schemas/${title}` };
    }
  }
}
