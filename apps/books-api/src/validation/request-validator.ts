import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler, preValidationAsyncHookHandler } from 'fastify';
import addFormats from 'ajv-formats';
import { RequestValidationError, unsupportedMediaType, type ValidationIssue } from '../errors.js';
import { isJsonMediaType } from './json-body.js';
import { issueFromAjvError, issues } from './pydantic-issues.js';
import { parseBooleanText, parseIntegerText, parseNumberText } from './text-values.js';
import { parseUuid } from './uuid.js';

/**
 * Validates the path, the query and the body of a request together and reports every
 * invalid field at once in Pydantic v2's shape (Fastify's own validation stops at the
 * first failing part). Compiled once per route from the route's JSON schemas.
 */

/** The Ajv every route's validator is compiled with. */
export function createRequestAjv(): Ajv {
  // Strict types (no coercion): a body's year must be a JSON integer. Lengths count code points.
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });
  addFormats.default(ajv);
  return ajv;
}

type JsonSchema = Record<string, unknown> & {
  type?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  default?: unknown;
  format?: string;
};

export interface RouteSchemas {
  params?: unknown;
  querystring?: unknown;
  body?: unknown;
  /** Media types the body may have; JSON when absent. */
  consumes?: readonly string[];
}

/** The parts to replace on the request: parsed, defaults applied, ids normalised. */
interface ValidatedParts {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
}

/** The parts as Fastify has them: parameters rather than an object, to spare one per request. */
type RequestValidator = (
  params: unknown,
  query: unknown,
  body: unknown,
  contentType: string | undefined,
) => ValidatedParts;

interface CompileOptions {
  /** Replaces a `$ref` schema by the schema it names. */
  resolve?: (schema: unknown) => unknown;
}

type TextLocation = 'path' | 'query';

interface TextField {
  name: string;
  schema: JsonSchema;
  required: boolean;
  check: ValidateFunction;
}

export function compileRequestValidator(
  ajv: Ajv,
  schemas: RouteSchemas,
  { resolve = (schema) => schema }: CompileOptions = {},
): RequestValidator | undefined {
  const params = textFields(ajv, resolve(schemas.params));
  const query = textFields(ajv, resolve(schemas.querystring));
  const bodySchema = resolve(schemas.body) as JsonSchema | undefined;
  const body = bodySchema === undefined ? undefined : compileBody(ajv, bodySchema);
  const consumes = schemas.consumes ?? ['application/json'];
  if (params === undefined && query === undefined && body === undefined) return undefined;

  return (rawParams, rawQuery, rawBody, contentType) => {
    if (body !== undefined && contentType !== undefined && !accepts(consumes, contentType)) {
      throw unsupportedMediaType(contentType, consumes);
    }
    const found: ValidationIssue[] = [];
    const result: ValidatedParts = {};
    if (params !== undefined) result.params = validateText('path', params, rawParams, found);
    if (query !== undefined) result.query = validateText('query', query, rawQuery, found);
    if (body !== undefined) body(rawBody, found);
    if (found.length > 0) throw new RequestValidationError(found);
    return result;
  };
}

/**
 * Fastify's own validator compiler, replaced: every part of every request passes it, and
 * validateRequest checks them all together instead.
 */
export const fastifyValidationOff: FastifySchemaCompiler<unknown> = () =>
  function passFastifyValidation() {
    return true;
  };

/**
 * The route's preValidation hook: its parts checked together, a RequestValidationError (422) or
 * a 415 thrown at once, the parsed path and query put back on the request.
 */
export function validationHook(validator: RequestValidator): preValidationAsyncHookHandler {
  return async function validateRequest(request) {
    const parts = validator(request.params, request.query, request.body, request.headers['content-type']);
    if (parts.params !== undefined) request.params = parts.params;
    if (parts.query !== undefined) request.query = parts.query;
  };
}

function accepts(consumes: readonly string[], contentType: string): boolean {
  const mediaType = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return consumes.some((accepted) =>
    accepted === 'application/json' ? isJsonMediaType(contentType) : accepted.toLowerCase() === mediaType,
  );
}

function withoutId(schema: JsonSchema): JsonSchema {
  const { $id: _id, ...rest } = schema;
  return rest;
}

function textFields(ajv: Ajv, schema: unknown): TextField[] | undefined {
  const object = schema as JsonSchema | undefined;
  if (object?.properties === undefined) return undefined;
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties).map(([name, property]) => ({
    name,
    schema: property,
    required: required.has(name) && !('default' in property),
    check: ajv.compile(withoutId(property)),
  }));
}

/** Path and query values are text: parse them as Pydantic's lax mode does, then check the rules. */
function validateText(
  location: TextLocation,
  fields: TextField[],
  raw: unknown,
  found: ValidationIssue[],
): Record<string, unknown> {
  const source = (raw ?? {}) as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    const rawValue = source[field.name];
    // A repeated query parameter: the last one wins, as in FastAPI.
    // Path and query values arrive as text from the router and the query-string parser.
    const text = (Array.isArray(rawValue) ? (rawValue as unknown[]).at(-1) : rawValue) as string | undefined;
    if (text === undefined) {
      if ('default' in field.schema) values[field.name] = field.schema.default;
      else if (field.required) found.push(issues.missing([location, field.name], null));
      continue;
    }
    const loc = [location, field.name];
    const parsed = parseText(field.schema, text, loc);
    if ('issue' in parsed) {
      found.push(parsed.issue);
      continue;
    }
    if (!field.check(parsed.value)) {
      const error = field.check.errors?.[0];
      if (error !== undefined) found.push(issueFromAjvError(error, loc, text));
      continue;
    }
    values[field.name] = parsed.value;
  }
  return values;
}

function parseText(
  schema: JsonSchema,
  text: string,
  loc: (string | number)[],
): { value: unknown } | { issue: ValidationIssue } {
  if (schema.format === 'uuid') {
    const uuid = parseUuid(text);
    return uuid.ok ? { value: uuid.value } : { issue: issues.uuidParsing(loc, text, uuid.reason) };
  }
  switch (schema.type) {
    case 'integer': {
      const value = parseIntegerText(text);
      return value === undefined ? { issue: issues.intParsing(loc, text) } : { value };
    }
    case 'number': {
      const value = parseNumberText(text);
      return value === undefined ? { issue: issues.floatParsing(loc, text) } : { value };
    }
    case 'boolean': {
      const value = parseBooleanText(text);
      return value === undefined ? { issue: issues.boolParsing(loc, text) } : { value };
    }
    default:
      return { value: text };
  }
}

/** Bodies are JSON (or form fields): types are strict, every field is reported once. */
function compileBody(ajv: Ajv, schema: JsonSchema) {
  const validate = ajv.compile(withoutId(schema));
  const fieldOrder = Object.keys(schema.properties ?? {});
  const isObjectModel = schema.type === 'object';
  return (body: unknown, found: ValidationIssue[]) => {
    if (body === undefined || body === null) {
      found.push(issues.missing(['body'], null));
      return;
    }
    if (validate(body)) return;
    const errors = validate.errors ?? [];
    if (isObjectModel && errors.some((error) => error.instancePath === '' && error.keyword === 'type')) {
      found.push(issues.modelAttributesType(['body'], body));
      return;
    }
    const byLoc = new Map<string, ValidationIssue>();
    for (const error of errors) {
      const issue = bodyIssue(error, body);
      const key = JSON.stringify(issue.loc);
      if (!byLoc.has(key)) byLoc.set(key, issue);
    }
    // Pydantic's order: the model's fields in definition order, then unknown fields.
    const rank = (issue: ValidationIssue) => {
      if (issue.type === 'extra_forbidden' && issue.loc.length === 2) return Number.POSITIVE_INFINITY;
      const index = fieldOrder.indexOf(String(issue.loc[1]));
      return index === -1 ? Number.POSITIVE_INFINITY : index;
    };
    found.push(...[...byLoc.values()].sort((a, b) => rank(a) - rank(b)));
  };
}

function bodyIssue(error: ErrorObject, body: unknown): ValidationIssue {
  const { loc, value } = locate(body, error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') {
    return issues.missing([...loc, String(params['missingProperty'])], value);
  }
  if (error.keyword === 'additionalProperties') {
    const key = String(params['additionalProperty']);
    return issues.extraForbidden([...loc, key], (value as Record<string, unknown>)[key]);
  }
  return issueFromAjvError(error, loc, value);
}

/** Turns an Ajv instance path into a Pydantic loc (list indexes as numbers) and the value there. */
function locate(body: unknown, instancePath: string): { loc: (string | number)[]; value: unknown } {
  const loc: (string | number)[] = ['body'];
  let value = body;
  if (instancePath === '') return { loc, value };
  for (const rawSegment of instancePath.slice(1).split('/')) {
    const segment = rawSegment.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(value)) {
      const index = Number(segment);
      loc.push(index);
      value = value[index];
    } else {
      loc.push(segment);
      value = Object.hasOwn(value as object, segment) ? (value as Record<string, unknown>)[segment] : undefined;
    }
  }
  return { loc, value };
}
