/**
 * The answers written before a request reaches its route's handler: by Node's parser through
 * plugins/app/connections.ts (unparseable request, headers too large, too slow, an `Expect`
 * it cannot meet) and by Fastify before routing (a broken or too long URL). Any operation can
 * get them, so each is one reusable component of `components.responses`, referenced from every
 * operation. Every one carries X-Request-ID and `{"detail": ...}`; 413 is not among them: only
 * a route that reads a body gives it, and those routes document it themselves.
 */

const httpError = { 'application/json': { schema: { $ref: '#/components/schemas/HTTPError' } } };
const requestId = { 'X-Request-ID': { $ref: '#/components/headers/X-Request-ID' } };

const response = (description: string) => ({ description, headers: requestId, content: httpError });

/** `components.responses`, keyed by the status each answers. */
const PRE_ROUTING = {
  '400': {
    name: 'BadRequest',
    response: response(
      'Bad request, answered before routing: a request line, header or body framing that cannot be ' +
        'parsed, a URL with broken percent-encoding, or an HTTP/1.1 request without Host. An ' +
        'unparseable request gets a new X-Request-ID and its connection is closed.',
    ),
  },
  '408': {
    name: 'RequestTimeout',
    response: response(
      'The request was not received in time (HEADERS_TIMEOUT_SECONDS for the headers, ' +
        'REQUEST_TIMEOUT_SECONDS for the whole request); the connection is closed.',
    ),
  },
  '417': {
    name: 'ExpectationFailed',
    response: response('An `Expect` header other than `100-continue`; the connection is closed.'),
  },
  '431': {
    name: 'RequestHeaderFieldsTooLarge',
    response: response("The request line and headers exceed Node's size limit; the connection is closed."),
  },
} as const;

type JsonObject = Record<string, unknown>;

/** The shared responses, for `components.responses`. */
export function preRoutingComponents(): JsonObject {
  return Object.fromEntries(Object.values(PRE_ROUTING).map(({ name, response }) => [name, response]));
}

/**
 * References the pre-routing answers from an operation. A status the route documents already (400
 * for X-Force-Error or a broken form) keeps its own response, whose description then names the
 * pre-routing causes too. A HEAD operation gets them inline without content: an answer to HEAD
 * has no body, whatever its status.
 */
export function addPreRoutingResponses(method: string, responses: JsonObject): void {
  for (const [status, { name, response }] of Object.entries(PRE_ROUTING)) {
    const own = responses[status] as { description?: unknown } | undefined;
    if (own !== undefined) {
      own.description = `${String(own.description).replace(/\.?$/, '.')} Also: ${response.description}`;
    } else if (method === 'head') {
      responses[status] = { description: response.description, headers: { ...response.headers } };
    } else {
      responses[status] = { $ref: `#/components/responses/${name}` };
    }
  }
}
