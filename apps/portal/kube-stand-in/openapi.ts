/**
 * OpenAPI v3 documents as kube-apiserver publishes them under /openapi/v3: a root listing one document
 * per group-version, and per group-version the paths, operations and schemas of what the stand-in
 * serves. kubectl reads them to learn that the server validates fields itself (the fieldValidation
 * query parameter on PATCH), so it leaves validation to the server, and for `kubectl explain`.
 */
import { createHash } from 'node:crypto';
import { CUSTOM_RESOURCES, EVENTS, NAMESPACES, VERSION_INFO, apiVersionOf, type ResourceDef } from './resources.js';

type Schema = Record<string, unknown>;

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';
const STATUS = 'io.k8s.apimachinery.pkg.apis.meta.v1.Status';
const PATCH = 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch';
const DELETE_OPTIONS = 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions';

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const string: Schema = { type: 'string' };
const stringMap: Schema = { type: 'object', additionalProperties: { type: 'string', default: '' } };
const anyObject: Schema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

/** A reverse-DNS schema name as kube-openapi writes it, e.g. io.upbound.azure.storage.v1beta1.Account. */
function schemaName(def: ResourceDef, suffix = ''): string {
  if (!def.group) return `io.k8s.api.core.${def.version}.${def.kind}${suffix}`;
  return `${def.group.split('.').reverse().join('.')}.${def.version}.${def.kind}${suffix}`;
}

function gvk(def: ResourceDef, kind = def.kind): Schema[] {
  return [{ group: def.group, version: def.version, kind }];
}

const SHARED_SCHEMAS: Record<string, Schema> = {
  [OBJECT_META]: {
    description: 'ObjectMeta is metadata that all persisted resources must have.',
    type: 'object',
    properties: {
      name: string,
      generateName: string,
      namespace: string,
      uid: string,
      resourceVersion: string,
      generation: { type: 'integer', format: 'int64' },
      creationTimestamp: { type: 'string', format: 'date-time' },
      deletionTimestamp: { type: 'string', format: 'date-time' },
      deletionGracePeriodSeconds: { type: 'integer', format: 'int64' },
      labels: stringMap,
      annotations: stringMap,
      finalizers: { type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'set' },
      ownerReferences: { type: 'array', items: anyObject },
      managedFields: { type: 'array', items: anyObject },
    },
  },
  [LIST_META]: {
    type: 'object',
    properties: { resourceVersion: string, continue: string, remainingItemCount: { type: 'integer', format: 'int64' } },
  },
  [STATUS]: {
    type: 'object',
    properties: {
      apiVersion: string,
      kind: string,
      status: string,
      message: string,
      reason: string,
      code: { type: 'integer', format: 'int32' },
      details: anyObject,
      metadata: { allOf: [ref(LIST_META)], default: {} },
    },
  },
  [PATCH]: { type: 'object', description: 'Patch is provided to give a concrete name and type to the patch body.' },
  [DELETE_OPTIONS]: {
    type: 'object',
    properties: {
      apiVersion: string,
      kind: string,
      dryRun: { type: 'array', items: string },
      gracePeriodSeconds: { type: 'integer', format: 'int64' },
      preconditions: { type: 'object', properties: { resourceVersion: string, uid: string } },
      propagationPolicy: string,
    },
  },
};

const CONDITION: Schema = {
  type: 'object',
  required: ['lastTransitionTime', 'reason', 'status', 'type'],
  properties: {
    type: string,
    status: string,
    reason: string,
    message: string,
    lastTransitionTime: { type: 'string', format: 'date-time' },
    observedGeneration: { type: 'integer', format: 'int64' },
  },
};

function parameterSchema(type: ResourceDef['parameterTypes'][string]): Schema {
  if (type === 'object') return stringMap;
  if (type === 'array') return { type: 'array', items: anyObject };
  return { type };
}

function managedResourceSchema(def: ResourceDef): Schema {
  const forProvider: Schema = {
    type: 'object',
    properties: Object.fromEntries(Object.entries(def.parameterTypes).map(([k, t]) => [k, parameterSchema(t)])),
  };
  return {
    description: `${def.kind} is a Crossplane managed resource of the Upbound Azure provider.`,
    type: 'object',
    required: ['spec'],
    properties: {
      apiVersion: { ...string, description: 'APIVersion defines the versioned schema of this representation.' },
      kind: { ...string, description: 'Kind is a string value representing the REST resource this object represents.' },
      metadata: { allOf: [ref(OBJECT_META)], default: {} },
      spec: {
        type: 'object',
        required: ['forProvider'],
        properties: {
          forProvider,
          initProvider: forProvider,
          deletionPolicy: { type: 'string', enum: ['Orphan', 'Delete'], default: 'Delete' },
          managementPolicies: { type: 'array', items: { type: 'string' }, default: ['*'] },
          providerConfigRef: { type: 'object', properties: { name: string }, required: ['name'] },
          writeConnectionSecretToRef: {
            type: 'object',
            properties: { name: string, namespace: string },
            required: ['name', 'namespace'],
          },
        },
      },
      status: {
        type: 'object',
        properties: {
          atProvider: anyObject,
          conditions: {
            type: 'array',
            items: CONDITION,
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['type'],
          },
          observedGeneration: { type: 'integer', format: 'int64' },
        },
      },
    },
    'x-kubernetes-group-version-kind': gvk(def),
  };
}

function eventSchema(): Schema {
  return {
    description: 'Event is a report of an event somewhere in the cluster.',
    type: 'object',
    required: ['metadata', 'involvedObject'],
    properties: {
      apiVersion: string,
      kind: string,
      metadata: { allOf: [ref(OBJECT_META)], default: {} },
      involvedObject: anyObject,
      reason: string,
      message: string,
      type: string,
      count: { type: 'integer', format: 'int32' },
      firstTimestamp: { type: 'string', format: 'date-time' },
      lastTimestamp: { type: 'string', format: 'date-time' },
      source: anyObject,
      reportingComponent: string,
      reportingInstance: string,
    },
    'x-kubernetes-group-version-kind': gvk(EVENTS),
  };
}

function namespaceSchema(): Schema {
  return {
    description: 'Namespace provides a scope for Names.',
    type: 'object',
    properties: {
      apiVersion: string,
      kind: string,
      metadata: { allOf: [ref(OBJECT_META)], default: {} },
      spec: anyObject,
      status: anyObject,
    },
    'x-kubernetes-group-version-kind': gvk(NAMESPACES),
  };
}

function queryParameter(name: string, description: string, schema: Schema = string): Schema {
  return { name, in: 'query', description, schema: { ...schema, uniqueItems: true } };
}

const DRY_RUN = queryParameter('dryRun', 'When present, indicates that modifications should not be persisted.');
const FIELD_MANAGER = queryParameter(
  'fieldManager',
  'A name associated with the actor or entity making these changes.',
);
const FIELD_VALIDATION = queryParameter(
  'fieldValidation',
  'How the server handles objects with unknown or duplicate fields: Ignore, Warn (the default) or Strict.',
);
const LIST_PARAMETERS = [
  queryParameter('allowWatchBookmarks', 'Requests watch events with type "BOOKMARK".', { type: 'boolean' }),
  queryParameter('continue', 'The continue token of the previous page.'),
  queryParameter('fieldSelector', 'A selector to restrict the list of returned objects by their fields.'),
  queryParameter('labelSelector', 'A selector to restrict the list of returned objects by their labels.'),
  queryParameter('limit', 'The maximum number of items to return.', { type: 'integer' }),
  queryParameter('resourceVersion', 'Where a watch starts.'),
  queryParameter('sendInitialEvents', 'Start a watch with the current objects, then a bookmark.', { type: 'boolean' }),
  queryParameter('timeoutSeconds', 'How long a list or watch call may take.', { type: 'integer' }),
  queryParameter('watch', 'Watch for changes to the described resources.', { type: 'boolean' }),
];

function jsonContent(schema: Schema): Schema {
  return { 'application/json': { schema }, 'application/yaml': { schema } };
}

function operation(
  def: ResourceDef,
  action: string,
  operationId: string,
  response: Schema,
  extra: Schema = {},
): Schema {
  return {
    operationId,
    tags: [def.group ? `${def.group.split('.')[0] ?? ''}${def.version}` : `core${def.version}`],
    responses: { '200': { description: 'OK', content: jsonContent(response) }, '401': { description: 'Unauthorized' } },
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk(def)[0],
    ...extra,
  };
}

// As a CRD's document says, no strategic merge patch, so kubectl apply sends merge patches; and no
// server-side apply, which the stand-in does not implement.
const PATCH_BODY: Schema = {
  content: Object.fromEntries(
    ['application/json-patch+json', 'application/merge-patch+json'].map((t) => [t, { schema: ref(PATCH) }]),
  ),
  required: true,
};

function resourcePaths(def: ResourceDef): Record<string, Schema> {
  const kind = ref(schemaName(def));
  const list = ref(schemaName(def, 'List'));
  const prefix = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
  const collection = def.namespaced ? `${prefix}/namespaces/{namespace}/${def.plural}` : `${prefix}/${def.plural}`;
  const namespaceParameter = def.namespaced
    ? [{ name: 'namespace', in: 'path', required: true, schema: { type: 'string', uniqueItems: true } }]
    : [];
  const nameParameter = { name: 'name', in: 'path', required: true, schema: { type: 'string', uniqueItems: true } };
  const writes = (verb: string): boolean => def.verbs.includes(verb);
  const paths: Record<string, Schema> = {
    [collection]: {
      get: operation(def, 'list', `list${def.kind}`, list, { parameters: LIST_PARAMETERS }),
      ...(writes('create')
        ? {
            post: operation(def, 'post', `create${def.kind}`, kind, {
              parameters: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION],
              requestBody: { content: jsonContent(kind), required: true },
            }),
          }
        : {}),
      parameters: namespaceParameter,
    },
    [`${collection}/{name}`]: {
      get: operation(def, 'get', `read${def.kind}`, kind),
      ...(writes('update')
        ? {
            put: operation(def, 'put', `replace${def.kind}`, kind, {
              parameters: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION],
              requestBody: { content: jsonContent(kind), required: true },
            }),
          }
        : {}),
      ...(writes('patch')
        ? {
            patch: operation(def, 'patch', `patch${def.kind}`, kind, {
              parameters: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION],
              requestBody: PATCH_BODY,
            }),
          }
        : {}),
      ...(writes('delete')
        ? {
            delete: operation(def, 'delete', `delete${def.kind}`, ref(STATUS), {
              parameters: [DRY_RUN],
              requestBody: { content: jsonContent(ref(DELETE_OPTIONS)) },
            }),
          }
        : {}),
      parameters: [...namespaceParameter, nameParameter],
    },
  };
  if (def.group) {
    paths[`${collection}/{name}/status`] = {
      get: operation(def, 'get', `read${def.kind}Status`, kind),
      put: operation(def, 'put', `replace${def.kind}Status`, kind, {
        parameters: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION],
        requestBody: { content: jsonContent(kind), required: true },
      }),
      patch: operation(def, 'patch', `patch${def.kind}Status`, kind, {
        parameters: [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION],
        requestBody: PATCH_BODY,
      }),
      parameters: [nameParameter],
    };
  }
  return paths;
}

function listSchema(def: ResourceDef): Schema {
  return {
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: string,
      kind: string,
      metadata: { allOf: [ref(LIST_META)], default: {} },
      items: { type: 'array', items: ref(schemaName(def)) },
    },
    'x-kubernetes-group-version-kind': gvk(def, `${def.kind}List`),
  };
}

/** "apis/<group>/<version>" or "api/v1", as the root document names group-versions. */
function groupVersionPath(def: ResourceDef): string {
  return def.group ? `apis/${apiVersionOf(def)}` : `api/${def.version}`;
}

const SERVED = [...CUSTOM_RESOURCES, EVENTS, NAMESPACES];

function buildDocuments(): Map<string, Schema> {
  const documents = new Map<string, Schema>();
  for (const path of new Set(SERVED.map(groupVersionPath))) {
    const defs = SERVED.filter((d) => groupVersionPath(d) === path);
    const schemas: Record<string, Schema> = { ...SHARED_SCHEMAS };
    for (const d of defs) {
      schemas[schemaName(d)] =
        d === EVENTS ? eventSchema() : d === NAMESPACES ? namespaceSchema() : managedResourceSchema(d);
      schemas[schemaName(d, 'List')] = listSchema(d);
    }
    documents.set(path, {
      openapi: '3.0.0',
      info: { title: 'Kubernetes', version: VERSION_INFO.gitVersion },
      paths: Object.assign({}, ...defs.map(resourcePaths)) as Record<string, Schema>,
      components: { schemas },
    });
  }
  return documents;
}

const DOCUMENTS = buildDocuments();
const HASHES = new Map(
  [...DOCUMENTS].map(([path, doc]) => [
    path,
    createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase().slice(0, 128),
  ]),
);

/** GET /openapi/v3: where each group-version's document is, with a hash that changes with it. */
export function openApiRoot(): Schema {
  return {
    paths: Object.fromEntries(
      [...DOCUMENTS.keys()].map((path) => [
        path,
        { serverRelativeURL: `/openapi/v3/${path}?hash=${HASHES.get(path) ?? ''}` },
      ]),
    ),
  };
}

/** The document of one group-version ("apis/<group>/<version>" or "api/v1"), or undefined. */
export function openApiDocument(path: string): Schema | undefined {
  return DOCUMENTS.get(path);
}
