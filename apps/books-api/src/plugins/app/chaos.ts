// Chaos mode: the X-Force-Error request header makes the books routes answer with a chosen
// failure status before any handler runs, so the store is never touched.

import { trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import {
  ERROR_CATALOGUE,
  forceErrorNotApproved,
  forceErrorNotInteger,
  simulatedError,
  type HttpError,
} from '../../errors.js';
import { parsePythonInt } from '../../validation/python-int.js';

const FORCE_ERROR_HEADER = 'x-force-error';

/** The contract's approved demo codes: the one list the hook, the OpenAPI document and the tests use. */
export const FORCEABLE_STATUS_CODES = [400, 404, 409, 429, 500, 502, 503, 504] as const;
type ForceableStatusCode = (typeof FORCEABLE_STATUS_CODES)[number];

/** Forced answers that tell a well-behaved client when to retry. */
export const RETRY_AFTER_SECONDS: Readonly<Partial<Record<ForceableStatusCode, number>>> = { 429: 1, 503: 1 };

export const NOT_AN_INTEGER_DETAIL = ERROR_CATALOGUE.BOOKS_ERR_FORCE_ERROR_NOT_INTEGER.detail;
export const NOT_APPROVED_DETAIL = ERROR_CATALOGUE.BOOKS_ERR_FORCE_ERROR_NOT_APPROVED.detail;

function simulatedErrorDetail(code: ForceableStatusCode): string {
  return simulatedError(code).detail;
}

type ForceErrorParse =
  | { readonly kind: 'forced'; readonly code: ForceableStatusCode }
  | { readonly kind: 'invalid'; readonly error: () => HttpError };

function isForceable(code: number): code is ForceableStatusCode {
  return (FORCEABLE_STATUS_CODES as readonly number[]).includes(code);
}

/**
 * Reads the header as Python's int() does (whitespace around, underscores between digits,
 * Unicode digits; see validation/python-int.ts). Repeated headers join into "503, 500",
 * which is not an integer.
 */
function parseForceErrorHeader(raw: string): ForceErrorParse {
  const value = parsePythonInt(raw);
  if (value === undefined) return { kind: 'invalid', error: forceErrorNotInteger };
  const code = Number(value);
  if (!isForceable(code)) return { kind: 'invalid', error: forceErrorNotApproved };
  return { kind: 'forced', code };
}

interface ChaosPluginOptions {
  readonly enabled: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on the routes the chaos hook covers, so their OpenAPI documents X-Force-Error. */
    forcedErrors?: boolean;
  }
}

/**
 * Registered inside the books routes' scope (fastify-plugin lets the hooks land in that scope
 * rather than in a child of it), so it acts on exactly those routes and nothing else.
 */
async function chaosPlugin(app: FastifyInstance, options: ChaosPluginOptions) {
  app.addHook('onRoute', function markChaosRoute(routeOptions) {
    // Marks the routes of this scope, so the OpenAPI transform documents the header exactly
    // where the hook acts, without matching URL strings.
    routeOptions.config = { ...routeOptions.config, forcedErrors: true };
  });

  // With chaos off there is no hook at all: the header is ignored, at no cost per request.
  if (!options.enabled) return;

  // onRequest is the first per-route stage: the body is not even parsed yet, nothing has
  // reached the store, and the thrown error goes through the app's one error handler.
  app.addHook('onRequest', async function forceErrorFromHeader(request) {
    const raw = request.headers[FORCE_ERROR_HEADER];
    if (raw === undefined) return;
    const parsed = parseForceErrorHeader(Array.isArray(raw) ? raw.join(', ') : raw);
    if (parsed.kind === 'invalid') throw parsed.error();
    app.metrics.recordForcedFailure(parsed.code);
    // The request's span (when tracing is on) says the answer was forced, so a trace of an
    // injected failure is told from a real one.
    trace.getActiveSpan()?.setAttribute('chaos.forced_status', parsed.code);
    throw simulatedError(parsed.code, RETRY_AFTER_SECONDS[parsed.code]);
  });
}

export default fp(chaosPlugin, { name: 'chaos', fastify: '5.x', dependencies: ['metrics'] });

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null;

const HEADER_DESCRIPTION =
  'Chaos mode only (ENABLE_CHAOS_HEADERS): answer with this status and ' +
  '`{"detail":"Simulated error <code>"}` before the route runs, changing nothing. ' +
  `Accepted: ${FORCEABLE_STATUS_CODES.join(', ')}; ` +
  `${Object.keys(RETRY_AFTER_SECONDS).join(' and ')} add Retry-After. ` +
  "The value is read as Python's int() reads text (surrounding whitespace, `5_03`); one that is not an integer, " +
  'or an integer not in the list, gives 400. Ignored when chaos mode is off.';

function forcedResponse(code: ForceableStatusCode, existing: unknown): JsonObject {
  const invalid = code === 400 ? ` Also "${NOT_AN_INTEGER_DETAIL}" or "${NOT_APPROVED_DETAIL}".` : '';
  const forced = `chaos mode, forced by X-Force-Error: "${simulatedErrorDetail(code)}".${invalid}`;
  const retryAfter = RETRY_AFTER_SECONDS[code];
  const headers =
    retryAfter === undefined
      ? {}
      : {
          headers: {
            'Retry-After': { type: 'integer', const: retryAfter, description: 'Seconds to wait before retrying' },
          },
        };
  if (isObject(existing)) {
    const description = typeof existing.description === 'string' ? `${existing.description}; or in ` : 'In ';
    return { ...existing, ...headers, description: `${description}${forced}` };
  }
  return { $ref: 'HTTPError', ...headers, description: `In ${forced}` };
}

/**
 * For the OpenAPI transform only (never for validation): adds the X-Force-Error header and
 * the forced responses to the documentation of the routes the chaos hook covers. The route
 * schema itself is left untouched, so validation and serialisation do not change.
 */
export function documentForcedErrors(
  route: { config?: unknown },
  schema: FastifySchema | undefined,
): FastifySchema | undefined {
  if (!isObject(route.config) || route.config.forcedErrors !== true) return schema;
  const base: JsonObject = { ...schema };

  const headers = isObject(base.headers) ? base.headers : { type: 'object', properties: {} };
  const properties = isObject(headers.properties) ? headers.properties : {};
  base.headers = {
    ...headers,
    properties: {
      ...properties,
      // No example or default: Swagger UI would pre-fill it, and every "Try it out" would fail.
      'X-Force-Error': { type: 'string', description: HEADER_DESCRIPTION },
    },
  };

  const responses: JsonObject = isObject(base.response) ? { ...base.response } : {};
  for (const code of FORCEABLE_STATUS_CODES) responses[code] = forcedResponse(code, responses[code]);
  base.response = responses;
  return base;
}
