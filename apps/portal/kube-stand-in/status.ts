/**
 * Status error objects exactly as the API server writes them (k8s.io/apimachinery errors package):
 * the same reasons, codes, messages and details, so the client sees what a cluster would send.
 */
import type { ResourceDef } from './resources.js';

export interface StatusCause {
  reason: string;
  message: string;
  field: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
}

export class StatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
    this.name = 'StatusError';
  }

  toStatus(): Record<string, unknown> {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

/** A field error as field.Error prints it: `<field>: <type>: <detail>`. */
export interface FieldError {
  type: 'FieldValueInvalid' | 'FieldValueRequired' | 'FieldValueTypeInvalid' | 'FieldValueTooLong';
  field: string;
  value?: unknown;
  detail: string;
}

function quoteValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function fieldErrorBody(e: FieldError): string {
  switch (e.type) {
    case 'FieldValueRequired':
      return e.detail ? `Required value: ${e.detail}` : 'Required value';
    case 'FieldValueTooLong':
      return `Too long: ${e.detail}`;
    default:
      return `Invalid value: ${quoteValue(e.value)}: ${e.detail}`;
  }
}

function qualifiedResource(def: ResourceDef): string {
  return def.group ? `${def.plural}.${def.group}` : def.plural;
}

export function notFound(def: ResourceDef, name: string): StatusError {
  return new StatusError(404, 'NotFound', `${qualifiedResource(def)} "${name}" not found`, {
    name,
    group: def.group,
    kind: def.plural,
  });
}

export function pathNotFound(): StatusError {
  return new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function alreadyExists(def: ResourceDef, name: string): StatusError {
  return new StatusError(409, 'AlreadyExists', `${qualifiedResource(def)} "${name}" already exists`, {
    name,
    group: def.group,
    kind: def.plural,
  });
}

export function invalid(def: ResourceDef, name: string, errors: FieldError[]): StatusError {
  const printed = errors.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
  // utilerrors.NewAggregate prints one error bare and several in brackets.
  const summary = printed.length === 1 ? printed[0] : `[${printed.join(', ')}]`;
  const groupKind = def.group ? `${def.kind}.${def.group}` : def.kind;
  return new StatusError(422, 'Invalid', `${groupKind} "${name}" is invalid: ${summary}`, {
    name,
    group: def.group,
    kind: def.kind,
    causes: errors.map((e) => ({
      reason: e.type === 'FieldValueTooLong' ? 'FieldValueTooLong' : e.type,
      message: fieldErrorBody(e),
      field: e.field,
    })),
  });
}

export function badRequest(message: string): StatusError {
  return new StatusError(400, 'BadRequest', message);
}

export function unauthorized(): StatusError {
  return new StatusError(401, 'Unauthorized', 'Unauthorized');
}

export function forbidden(
  user: string,
  verb: string,
  def: ResourceDef,
  name?: string,
  namespace?: string,
): StatusError {
  const subject = name ? `${qualifiedResource(def)} "${name}"` : qualifiedResource(def);
  const scope = namespace ? `in the namespace "${namespace}"` : 'at the cluster scope';
  return new StatusError(
    403,
    'Forbidden',
    `${subject} is forbidden: User "${user}" cannot ${verb} resource "${def.plural}" in API group "${def.group}" ${scope}`,
    { ...(name ? { name } : {}), group: def.group, kind: def.plural },
  );
}

export function methodNotAllowed(): StatusError {
  return new StatusError(
    405,
    'MethodNotAllowed',
    'the server does not allow this method on the requested resource',
    {},
  );
}

export function unsupportedMediaType(
  accepted: readonly string[] = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'],
): StatusError {
  return new StatusError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    {},
  );
}

export function conflict(def: ResourceDef, name: string, reason: string): StatusError {
  return new StatusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(def)} "${name}": ${reason}`,
    {
      name,
      group: def.group,
      kind: def.plural,
    },
  );
}

export const STALE_OBJECT =
  'the object has been modified; please apply your changes to the latest version and try again';

/** A watch from a resourceVersion older than the history kept: the client must list again. */
export function expired(requested: number, oldest: number): StatusError {
  return new StatusError(410, 'Expired', `too old resource version: ${requested} (${oldest})`, {});
}

export function notAcceptable(): StatusError {
  return new StatusError(
    406,
    'NotAcceptable',
    'the server was unable to respond with a content type that the client supports',
    {},
  );
}

export function entityTooLarge(limit: number): StatusError {
  return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
}
