/**
 * Object validation as the API server applies it to a custom resource on create: the kind must match,
 * metadata follows apimachinery's rules (DNS-1123 subdomain names, label syntax), and spec follows the
 * provider CRD's structural schema and CEL rules for required parameters. Messages are apimachinery's.
 */
import type { FieldError } from './status.js';
import type { ResourceDef } from './resources.js';
import type { KubeObject } from './types.js';

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const LABEL_VALUE_MESSAGE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const QUALIFIED_NAME_MESSAGE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const MAX_NAME_LENGTH = 253;
const MAX_LABEL_VALUE_LENGTH = 63;
const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function validateObjectName(name: string, field = 'metadata.name'): FieldError[] {
  const errors: FieldError[] = [];
  if (name.length > MAX_NAME_LENGTH) {
    errors.push({
      type: 'FieldValueInvalid',
      field,
      value: name,
      detail: `must be no more than ${MAX_NAME_LENGTH} characters`,
    });
  }
  if (!DNS1123_SUBDOMAIN.test(name)) {
    errors.push({ type: 'FieldValueInvalid', field, value: name, detail: DNS1123_SUBDOMAIN_MESSAGE });
  }
  return errors;
}

function validateQualifiedKey(key: string, field: string): FieldError[] {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : '';
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  const errors: FieldError[] = [];
  if (slash >= 0 && !DNS1123_SUBDOMAIN.test(prefix)) {
    errors.push({ type: 'FieldValueInvalid', field, value: key, detail: `prefix part ${DNS1123_SUBDOMAIN_MESSAGE}` });
  }
  if (name.length === 0 || name.length > 63 || !QUALIFIED_NAME.test(name)) {
    errors.push({ type: 'FieldValueInvalid', field, value: key, detail: QUALIFIED_NAME_MESSAGE });
  }
  return errors;
}

function validateStringMap(value: unknown, field: string): FieldError[] {
  if (value === undefined || value === null) return [];
  if (!isRecord(value)) {
    return [
      {
        type: 'FieldValueTypeInvalid',
        field,
        value: typeof value,
        detail: `${field} in body must be of type object: "${typeof value}"`,
      },
    ];
  }
  const errors: FieldError[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string') {
      errors.push({
        type: 'FieldValueTypeInvalid',
        field: `${field}.${key}`,
        value: typeof v,
        detail: `${field}.${key} in body must be of type string: "${typeof v}"`,
      });
    }
  }
  return errors;
}

function validateLabels(labels: unknown): FieldError[] {
  const typeErrors = validateStringMap(labels, 'metadata.labels');
  if (typeErrors.length > 0 || !isRecord(labels)) return typeErrors;
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(labels as Record<string, string>)) {
    errors.push(...validateQualifiedKey(key, 'metadata.labels'));
    if (value.length > MAX_LABEL_VALUE_LENGTH) {
      errors.push({
        type: 'FieldValueInvalid',
        field: 'metadata.labels',
        value,
        detail: `must be no more than ${MAX_LABEL_VALUE_LENGTH} characters`,
      });
    }
    if (!LABEL_VALUE.test(value)) {
      errors.push({ type: 'FieldValueInvalid', field: 'metadata.labels', value, detail: LABEL_VALUE_MESSAGE });
    }
  }
  return errors;
}

function validateAnnotations(annotations: unknown): FieldError[] {
  const typeErrors = validateStringMap(annotations, 'metadata.annotations');
  if (typeErrors.length > 0 || !isRecord(annotations)) return typeErrors;
  const errors: FieldError[] = [];
  let total = 0;
  for (const [key, value] of Object.entries(annotations as Record<string, string>)) {
    errors.push(...validateQualifiedKey(key.toLowerCase(), 'metadata.annotations'));
    total += key.length + value.length;
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) {
    errors.push({
      type: 'FieldValueTooLong',
      field: 'metadata.annotations',
      detail: `may not be more than ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes`,
    });
  }
  return errors;
}

function typeOfJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function validateSpec(def: ResourceDef, spec: unknown): FieldError[] {
  if (spec === undefined) return [{ type: 'FieldValueRequired', field: 'spec', detail: '' }];
  if (!isRecord(spec)) {
    return [
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec',
        value: typeOfJson(spec),
        detail: `spec in body must be of type object: "${typeOfJson(spec)}"`,
      },
    ];
  }
  const forProvider = spec['forProvider'];
  if (forProvider !== undefined && !isRecord(forProvider)) {
    return [
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.forProvider',
        value: typeOfJson(forProvider),
        detail: `spec.forProvider in body must be of type object: "${typeOfJson(forProvider)}"`,
      },
    ];
  }
  const params = forProvider ?? {};
  const errors: FieldError[] = [];
  for (const [param, expected] of Object.entries(def.parameterTypes)) {
    const value = params[param];
    if (value === undefined) continue;
    const actual = typeOfJson(value);
    const matches = expected === actual || (expected === 'number' && actual === 'integer');
    if (!matches) {
      const field = `spec.forProvider.${param}`;
      errors.push({
        type: 'FieldValueTypeInvalid',
        field,
        value: actual,
        detail: `${field} in body must be of type ${expected}: "${actual}"`,
      });
    }
  }
  // Upjet's generated CRDs express required parameters as CEL rules on spec, so the error names spec.
  const managementPolicies = Array.isArray(spec['managementPolicies'])
    ? (spec['managementPolicies'] as unknown[])
    : ['*'];
  const createsOrUpdates = ['*', 'Create', 'Update'].some((p) => managementPolicies.includes(p));
  const initProvider = isRecord(spec['initProvider']) ? spec['initProvider'] : {};
  if (createsOrUpdates) {
    for (const param of def.requiredParameters) {
      if (params[param] === undefined && initProvider[param] === undefined) {
        errors.push({
          type: 'FieldValueInvalid',
          field: 'spec',
          value: 'object',
          detail: `spec.forProvider.${param} is a required parameter`,
        });
      }
    }
  }
  return errors;
}

/** Everything the API server checks before it stores a new custom object. */
export function validateNewObject(def: ResourceDef, object: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  if (object.kind !== def.kind) {
    errors.push({ type: 'FieldValueInvalid', field: 'kind', value: object.kind, detail: `must be ${def.kind}` });
  }
  const name = object.metadata.name;
  if (typeof name === 'string' && name.length > 0) errors.push(...validateObjectName(name));
  errors.push(...validateLabels(object.metadata.labels));
  errors.push(...validateAnnotations(object.metadata.annotations));
  errors.push(...validateSpec(def, object.spec));
  return errors;
}

const OBJECT_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
const METADATA_FIELDS = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);
// Every Crossplane managed resource's spec; forProvider's parameters are too many to list here.
const MANAGED_SPEC_FIELDS = new Set([
  'forProvider',
  'initProvider',
  'deletionPolicy',
  'managementPolicies',
  'providerConfigRef',
  'publishConnectionDetailsTo',
  'writeConnectionSecretToRef',
]);

function unknownKeys(value: unknown, known: Set<string>, prefix: string): string[] {
  if (!isRecord(value)) return [];
  return Object.keys(value)
    .filter((key) => !known.has(key))
    .map((key) => `${prefix}${key}`);
}

/** Fields the custom resource's structural schema would prune, as paths for fieldValidation messages. */
export function unknownFields(def: ResourceDef, object: KubeObject): string[] {
  if (!def.group) return [];
  return [
    ...unknownKeys(object, OBJECT_FIELDS, ''),
    ...unknownKeys(object.metadata, METADATA_FIELDS, 'metadata.'),
    ...unknownKeys(object.spec, MANAGED_SPEC_FIELDS, 'spec.'),
  ];
}
