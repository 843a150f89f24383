/**
 * The Kubernetes REST API for the stand-in's resources: paths, verbs, query parameters and answers
 * as kube-apiserver serves them for cluster-scoped and namespaced custom resources, core/v1 events
 * and namespaces.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { RECONCILE_REQUESTED_AT, type SimulatedCrossplane } from './crossplane.js';
import { EVENT_FIELD_SELECTORS } from './events.js';
import { isForbidden, type Faults } from './faults.js';
import { namespaceFromBody, requireNamespace } from './namespaces.js';
import { openApiDocument, openApiRoot } from './openapi.js';
import { applyPatch, parsePatch, patchMediaType } from './patches.js';
import {
  apiVersionOf,
  coreResourceList,
  coreVersions,
  EVENTS,
  findCustomResource,
  groupDocument,
  groupList,
  groupVersionResourceList,
  NAMESPACES,
  VERSION_INFO,
  type ResourceDef,
} from './resources.js';
import { fieldValue, matches, parseFieldSelector, parseLabelSelector, type Selector } from './selectors.js';
import {
  alreadyExists,
  badRequest,
  conflict,
  forbidden,
  invalid,
  methodNotAllowed,
  notFound,
  pathNotFound,
  STALE_OBJECT,
  StatusError,
  unsupportedMediaType,
} from './status.js';
import { objectKey, type ObjectStore } from './store.js';
import { includeObjectOf, requestedTable, tableContentType, toTable } from './tables.js';
import { kubeTime, type KubeObject, type Verb } from './types.js';
import { isRecord, unknownFields, validateNewObject, validateObjectName } from './validation.js';
import type { WatchPlan } from './watch.js';

export interface ApiRequest {
  method: string;
  segments: string[];
  query: URLSearchParams;
  contentType: string;
  accept: string;
  readBody: () => Promise<Buffer>;
  serverAddress: string;
}

export interface ApiResponse {
  status: number;
  body?: unknown;
  contentType?: string;
  /** Warning headers (RFC 7234 code 299), as the API server sends for fieldValidation=Warn. */
  warnings?: string[];
  /** A watch to stream instead of a body. */
  watch?: WatchPlan;
  /** What RBAC would have checked, for the request log. */
  verb?: Verb;
  resource?: string;
}

// apiserver's names.SimpleNameGenerator: consonants and digits that cannot spell words.
const GENERATED_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const GENERATED_SUFFIX_LENGTH = 5;
const MAX_GENERATED_PREFIX = 63 - GENERATED_SUFFIX_LENGTH;
const CUSTOM_RESOURCE_FIELD_SELECTORS = ['metadata.name', 'metadata.namespace'] as const;
// kube-apiserver ends a watch without timeoutSeconds after a random 30 to 60 minutes.
const MIN_WATCH_TIMEOUT_SECONDS = 1800;
// Fields the server owns: a create or update cannot set them, whatever the body says.
const SERVER_OWNED_METADATA = [
  'namespace',
  'resourceVersion',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'managedFields',
  'selfLink',
];

type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < GENERATED_SUFFIX_LENGTH; i += 1)
    suffix += GENERATED_ALPHABET[randomInt(GENERATED_ALPHABET.length)];
  return `${prefix.slice(0, MAX_GENERATED_PREFIX)}${suffix}`;
}

type OptionsKind = 'CreateOptions' | 'DeleteOptions' | 'PatchOptions' | 'UpdateOptions';

function checkDryRun(values: unknown[], kind: OptionsKind): boolean {
  if (values.length === 0) return false;
  const unsupported = values.filter((v) => v !== 'All');
  if (unsupported.length > 0) {
    throw new StatusError(
      422,
      'Invalid',
      `${kind}.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{${unsupported.map((v) => JSON.stringify(v)).join(', ')}}: supported values: "All"`,
      {
        group: 'meta.k8s.io',
        kind,
        causes: [{ reason: 'FieldValueNotSupported', message: 'Unsupported value', field: 'dryRun' }],
      },
    );
  }
  return true;
}

function dryRunRequested(query: URLSearchParams, kind: OptionsKind): boolean {
  return checkDryRun(query.getAll('dryRun'), kind);
}

function fieldValidationOf(query: URLSearchParams): FieldValidation {
  const value = query.get('fieldValidation');
  // Since Kubernetes 1.27 the server warns about unknown fields unless told otherwise.
  if (value === null || value === '') return 'Warn';
  if (value === 'Ignore' || value === 'Warn' || value === 'Strict') return value;
  throw badRequest(`fieldValidation: Unsupported value: "${value}": supported values: "Ignore", "Strict", "Warn"`);
}

/**
 * One chunk of a list. As with etcd, the continue token names the key the chunk ended at and the
 * next chunk starts after it, so an object deleted in between moves no other object out of reach.
 */
function listPage(
  def: ResourceDef,
  items: KubeObject[],
  resourceVersion: string,
  query: URLSearchParams,
): { metadata: Record<string, unknown>; page: KubeObject[] } {
  const limit = Number(query.get('limit') ?? 0);
  const token = query.get('continue');
  const after = token ? Buffer.from(token, 'base64url').toString() : undefined;
  const keyOf = (object: KubeObject) => objectKey(object.metadata.namespace, object.metadata.name ?? '');
  const rest = after === undefined ? items : items.filter((object) => keyOf(object) > after);
  const page = limit > 0 ? rest.slice(0, limit) : rest;
  const remaining = rest.length - page.length;
  const last = page.at(-1);
  return {
    metadata: {
      resourceVersion,
      ...(remaining > 0 && last
        ? { continue: Buffer.from(keyOf(last)).toString('base64url'), remainingItemCount: remaining }
        : {}),
    },
    page,
  };
}

function dedupe<T>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function timeoutSecondsOf(query: URLSearchParams): number {
  const raw = query.get('timeoutSeconds');
  if (raw === null || raw === '') return MIN_WATCH_TIMEOUT_SECONDS * (1 + Math.random());
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw badRequest(`timeoutSeconds: Invalid value: "${raw}"`);
  return value;
}

function isWatch(query: URLSearchParams): boolean {
  const watch = query.get('watch');
  return watch === 'true' || watch === '1';
}

export class KubeApi {
  constructor(
    private readonly store: ObjectStore,
    private readonly crossplane: SimulatedCrossplane,
    private readonly faults: () => Faults,
    private readonly user: string,
  ) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const { method, segments } = request;
    const [root, ...rest] = segments;
    if (segments.length === 0 && method === 'GET') {
      return {
        status: 200,
        body: {
          paths: ['/api', '/api/v1', '/apis', '/healthz', '/livez', '/openapi/v3', '/readyz', '/version'],
        },
      };
    }
    if (root === 'version' && rest.length === 0 && method === 'GET') return { status: 200, body: VERSION_INFO };
    if (root === 'openapi' && method === 'GET') return this.openApi(rest);
    if (root === 'api') return this.core(request, rest);
    if (root === 'apis') return this.groups(request, rest);
    throw pathNotFound();
  }

  private openApi(segments: string[]): ApiResponse {
    const [version, ...path] = segments;
    if (version !== 'v3') throw pathNotFound();
    if (path.length === 0) return { status: 200, body: openApiRoot() };
    const document = openApiDocument(path.join('/'));
    if (!document) throw pathNotFound();
    return { status: 200, body: document };
  }

  private authorize(verb: Verb, def: ResourceDef, name?: string, namespace?: string): void {
    if (isForbidden(this.faults(), verb, def.plural, namespace)) throw forbidden(this.user, verb, def, name, namespace);
  }

  private async core(request: ApiRequest, segments: string[]): Promise<ApiResponse> {
    const get = request.method === 'GET';
    if (segments.length === 0 && get) return { status: 200, body: coreVersions(request.serverAddress) };
    if (segments[0] !== 'v1') throw pathNotFound();
    const path = segments.slice(1);
    if (path.length === 0 && get) return { status: 200, body: coreResourceList() };
    if (path[0] === 'namespaces' && path.length <= 2) return this.namespaces(request, path[1]);
    if (path.length === 1 && path[0] === 'events') return this.listEvents(request, undefined);
    if (path.length >= 3 && path[0] === 'namespaces' && path[2] === 'events') {
      const namespace = path[1] ?? '';
      if (path.length === 3) return this.listEvents(request, namespace);
      if (path.length === 4) return this.getEvent(request, namespace, path[3] ?? '');
    }
    throw pathNotFound();
  }

  private listEvents(request: ApiRequest, namespace: string | undefined): ApiResponse {
    if (request.method !== 'GET') throw methodNotAllowed();
    const fields = parseFieldSelector(request.query.get('fieldSelector'), EVENT_FIELD_SELECTORS);
    const labels = parseLabelSelector(request.query.get('labelSelector'));
    return this.listOrWatch(EVENTS, request, fields, labels, namespace);
  }

  private getEvent(request: ApiRequest, namespace: string, name: string): ApiResponse {
    if (request.method !== 'GET') throw methodNotAllowed();
    this.authorize('get', EVENTS, name, namespace);
    const event = this.store.get(EVENTS, name, namespace);
    if (!event) throw notFound(EVENTS, name);
    return this.answerObject(EVENTS, request, 200, event, 'get');
  }

  private async namespaces(request: ApiRequest, name: string | undefined): Promise<ApiResponse> {
    if (request.method === 'GET' && name === undefined) {
      const fields = parseFieldSelector(request.query.get('fieldSelector'), CUSTOM_RESOURCE_FIELD_SELECTORS);
      return this.listOrWatch(NAMESPACES, request, fields, parseLabelSelector(request.query.get('labelSelector')));
    }
    if (request.method === 'GET' && name !== undefined) return this.get(NAMESPACES, name, request);
    if (request.method !== 'POST' || name !== undefined) throw methodNotAllowed();
    this.authorize('create', NAMESPACES);
    const dryRun = dryRunRequested(request.query, 'CreateOptions');
    const object = namespaceFromBody((await request.readBody()).toString('utf8'));
    const namespaceName = object.metadata.name ?? '';
    if (this.store.get(NAMESPACES, namespaceName)) throw alreadyExists(NAMESPACES, namespaceName);
    return this.answerObject(NAMESPACES, request, 201, dryRun ? object : this.store.put(NAMESPACES, object), 'create');
  }

  private async groups(request: ApiRequest, segments: string[]): Promise<ApiResponse> {
    const get = request.method === 'GET';
    const [group = '', version = ''] = segments;
    // A namespaced resource's objects live under .../namespaces/<namespace>/<plural>.
    const scoped = segments[2] === 'namespaces' && segments.length >= 5;
    const namespace = scoped ? segments[3] : undefined;
    const [plural = '', name, subresource, ...extra] = segments.slice(scoped ? 4 : 2);
    if (segments.length === 0 && get) return { status: 200, body: groupList() };
    if (segments.length === 1 && get) {
      const doc = groupDocument(group);
      if (doc) return { status: 200, body: doc };
    }
    if (segments.length === 2 && get) {
      const doc = groupVersionResourceList(group, version);
      if (doc) return { status: 200, body: doc };
    }
    const def = segments.length >= 3 ? findCustomResource(group, version, plural) : undefined;
    if (!def || extra.length > 0 || (subresource !== undefined && subresource !== 'status')) throw pathNotFound();
    // Cluster-scoped objects have no namespace path; namespaced ones are listed and watched across
    // namespaces at the group-version's root, but read and written only in their namespace.
    if (scoped !== def.namespaced && (scoped || name !== undefined || request.method !== 'GET')) throw pathNotFound();
    if (name === undefined) {
      if (request.method === 'GET') return this.list(def, request, namespace);
      if (request.method === 'POST') return this.create(def, request, namespace);
      throw methodNotAllowed();
    }
    if (subresource === 'status') {
      if (request.method === 'GET') return this.get(def, name, request, namespace);
      if (request.method === 'PUT') return this.update(def, name, request, true, namespace);
      if (request.method === 'PATCH') return this.patch(def, name, request, true, namespace);
      throw methodNotAllowed();
    }
    if (request.method === 'GET') return this.get(def, name, request, namespace);
    if (request.method === 'PUT') return this.update(def, name, request, false, namespace);
    if (request.method === 'PATCH') return this.patch(def, name, request, false, namespace);
    if (request.method === 'DELETE') return this.delete(def, name, request, namespace);
    throw methodNotAllowed();
  }

  private list(def: ResourceDef, request: ApiRequest, namespace: string | undefined): ApiResponse {
    const fields = parseFieldSelector(request.query.get('fieldSelector'), CUSTOM_RESOURCE_FIELD_SELECTORS);
    const labels = parseLabelSelector(request.query.get('labelSelector'));
    return this.listOrWatch(def, request, fields, labels, namespace);
  }

  private listOrWatch(
    def: ResourceDef,
    request: ApiRequest,
    fields: Selector,
    labels: Selector,
    namespace?: string,
  ): ApiResponse {
    const selects = (o: KubeObject): boolean =>
      matches(fields, (key) => fieldValue(o, key)) && matches(labels, (key) => o.metadata.labels?.[key]);
    const table = requestedTable(request.accept);
    const include = includeObjectOf(request.query);
    if (isWatch(request.query)) {
      this.authorize('watch', def, undefined, namespace);
      const resourceVersion = request.query.get('resourceVersion') ?? '';
      if (resourceVersion !== '' && !/^\d+$/.test(resourceVersion)) {
        throw badRequest(`resourceVersion: Invalid value: "${resourceVersion}": must be a non-negative integer`);
      }
      return {
        status: 200,
        watch: {
          def,
          ...(namespace === undefined ? {} : { namespace }),
          selects,
          resourceVersion,
          sendInitialEvents: request.query.get('sendInitialEvents') === 'true',
          allowBookmarks: request.query.get('allowWatchBookmarks') === 'true',
          timeoutSeconds: timeoutSecondsOf(request.query),
          encode: (object, first) =>
            table
              ? toTable(def, [object], {
                  version: table,
                  include,
                  listMetadata: { resourceVersion: object.metadata.resourceVersion },
                  withColumns: first,
                })
              : object,
          contentType: table ? tableContentType(table) : 'application/json',
        },
        verb: 'watch',
        resource: def.plural,
      };
    }
    this.authorize('list', def, undefined, namespace);
    const items = this.store.list(def, namespace).filter(selects);
    const { metadata, page } = listPage(def, items, this.store.currentRevision(), request.query);
    return {
      status: 200,
      ...(table
        ? {
            body: toTable(def, page, { version: table, include, listMetadata: metadata }),
            contentType: tableContentType(table),
          }
        : { body: { apiVersion: apiVersionOf(def), kind: `${def.kind}List`, metadata, items: page } }),
      verb: 'list',
      resource: def.plural,
    };
  }

  /** An object, or a one-row Table when the client asked for server-side printing. */
  private answerObject(
    def: ResourceDef,
    request: ApiRequest,
    status: number,
    object: KubeObject,
    verb: Verb,
    warnings?: string[],
  ): ApiResponse {
    const table = requestedTable(request.accept);
    const body = table
      ? toTable(def, [object], {
          version: table,
          include: includeObjectOf(request.query),
          listMetadata: { resourceVersion: object.metadata.resourceVersion },
        })
      : object;
    return {
      status,
      body,
      ...(table ? { contentType: tableContentType(table) } : {}),
      ...(warnings && warnings.length > 0 ? { warnings } : {}),
      verb,
      resource: def.plural,
    };
  }

  private get(def: ResourceDef, name: string, request: ApiRequest, namespace?: string): ApiResponse {
    this.authorize('get', def, name, namespace);
    const object = this.store.get(def, name, namespace);
    if (!object) throw notFound(def, name);
    return this.answerObject(def, request, 200, object, 'get');
  }

  private async parseObject(def: ResourceDef, request: ApiRequest): Promise<KubeObject> {
    const mediaType = request.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    if (mediaType !== 'application/json') throw unsupportedMediaType();
    const raw = (await request.readBody()).toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      const reason = error instanceof Error ? error.message : 'invalid JSON';
      throw badRequest(
        `the object provided is unrecognized (must be of type ${def.kind}): couldn't get version/kind; json parse error: ${reason}`,
      );
    }
    if (!isRecord(parsed)) {
      throw badRequest(
        `the object provided is unrecognized (must be of type ${def.kind}): couldn't get version/kind; json parse error: json: cannot unmarshal ${Array.isArray(parsed) ? 'array' : typeof parsed} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
      );
    }
    if (typeof parsed['kind'] !== 'string' || parsed['kind'] === '') {
      throw badRequest(`Object 'Kind' is missing in '${raw.slice(0, 1024)}'`);
    }
    const apiVersion = typeof parsed['apiVersion'] === 'string' ? parsed['apiVersion'] : '';
    if (apiVersion !== apiVersionOf(def)) {
      throw badRequest(
        `the API version in the data (${apiVersion}) does not match the expected API version (${apiVersionOf(def)})`,
      );
    }
    const metadata = parsed['metadata'] ?? {};
    if (!isRecord(metadata)) {
      throw badRequest(
        `unable to decode metadata: json: cannot unmarshal ${typeof metadata} into Go struct field ObjectMeta of type v1.ObjectMeta`,
      );
    }
    return { ...parsed, apiVersion, kind: parsed['kind'], metadata };
  }

  /** Unknown fields: refused under Strict, reported as warnings under Warn, as the API server does. */
  private checkFields(def: ResourceDef, object: KubeObject, request: ApiRequest): string[] {
    const unknown = unknownFields(def, object);
    if (unknown.length === 0) return [];
    const mode = fieldValidationOf(request.query);
    const messages = unknown.map((path) => `unknown field "${path}"`);
    if (mode === 'Strict') {
      const detail = messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
      throw badRequest(
        `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: strict decoding error: ${detail}`,
      );
    }
    return mode === 'Warn' ? messages : [];
  }

  private async create(def: ResourceDef, request: ApiRequest, namespace?: string): Promise<ApiResponse> {
    this.authorize('create', def, undefined, namespace);
    const dryRun = dryRunRequested(request.query, 'CreateOptions');
    const object = await this.parseObject(def, request);
    const bodyNamespace = object.metadata.namespace;
    if (namespace !== undefined && bodyNamespace !== undefined && bodyNamespace !== '' && bodyNamespace !== namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    if (namespace !== undefined) requireNamespace(this.store, namespace);
    const warnings = this.checkFields(def, object, request);
    const metadata = object.metadata;
    const requestedName = typeof metadata.name === 'string' ? metadata.name : '';
    const prefix = typeof metadata.generateName === 'string' ? metadata.generateName : '';
    if (!requestedName && !prefix) {
      throw invalid(def, '', [
        { type: 'FieldValueRequired', field: 'metadata.name', detail: 'name or generateName is required' },
      ]);
    }
    const name = requestedName || generateName(prefix);
    const errors = validateNewObject(def, object);
    if (!requestedName) {
      // A bad generateName is reported against metadata.generateName, as the API server does.
      errors.push(...validateObjectName(name, 'metadata.generateName').map((e) => ({ ...e, value: prefix })));
    }
    if (errors.length > 0) throw invalid(def, name, dedupe(errors));
    const policy = this.faults().denyingPolicy;
    if (policy) {
      // Admission runs after schema validation and also for dry runs; a denial without a reason is Invalid.
      throw new StatusError(
        422,
        'Invalid',
        `${def.plural}.${def.group} "${name}" is forbidden: ValidatingAdmissionPolicy '${policy.policy}' with binding '${policy.policy}-binding' denied request: ${policy.message}`,
        { causes: [{ reason: '', message: policy.message, field: '' }] },
      );
    }
    if (this.faults().conflictOnCreate || this.store.get(def, name, namespace)) throw alreadyExists(def, name);

    // Status is a subresource, so a create cannot set it.
    const { status: _ignoredStatus, ...withoutStatus } = object;
    const stored: KubeObject = {
      ...withoutStatus,
      metadata: {
        ...Object.fromEntries(Object.entries(metadata).filter(([k]) => !SERVER_OWNED_METADATA.includes(k))),
        name,
        ...(namespace === undefined ? {} : { namespace }),
        uid: randomUUID(),
        generation: 1,
        creationTimestamp: kubeTime(),
      },
    };
    if (dryRun) return this.answerObject(def, request, 201, stored, 'create', warnings);
    const saved = this.store.put(def, stored);
    this.crossplane.created(def, name, namespace);
    return this.answerObject(def, request, 201, saved, 'create', warnings);
  }

  /** PUT: the whole object, accepted only at the resourceVersion it was read at. */
  private async update(
    def: ResourceDef,
    name: string,
    request: ApiRequest,
    statusOnly: boolean,
    namespace?: string,
  ): Promise<ApiResponse> {
    this.authorize('update', def, name, namespace);
    const dryRun = dryRunRequested(request.query, 'UpdateOptions');
    const object = await this.parseObject(def, request);
    if (object.metadata.name !== undefined && object.metadata.name !== name) {
      throw badRequest(
        `the name of the object (${String(object.metadata.name)}) does not match the name on the URL (${name})`,
      );
    }
    const current = this.store.get(def, name, namespace);
    if (!current) throw notFound(def, name);
    const requestedVersion = object.metadata.resourceVersion;
    if (requestedVersion === undefined || requestedVersion === '') {
      // Custom resources allow no unconditional update.
      throw invalid(def, name, [
        {
          type: 'FieldValueInvalid',
          field: 'metadata.resourceVersion',
          value: '0x0',
          detail: 'must be specified for an update',
        },
      ]);
    }
    if (requestedVersion !== current.metadata.resourceVersion) throw conflict(def, name, STALE_OBJECT);
    const warnings = this.checkFields(def, object, request);
    const candidate: KubeObject = statusOnly
      ? { ...current, ...(object.status === undefined ? {} : { status: object.status }) }
      : {
          ...object,
          metadata: {
            ...Object.fromEntries(Object.entries(object.metadata).filter(([k]) => !SERVER_OWNED_METADATA.includes(k))),
            name,
          },
        };
    if (!statusOnly && object.status === undefined) delete candidate.status;
    return this.commit(def, current, candidate, { request, dryRun, statusOnly, verb: 'update', warnings });
  }

  private async patch(
    def: ResourceDef,
    name: string,
    request: ApiRequest,
    statusOnly: boolean,
    namespace?: string,
  ): Promise<ApiResponse> {
    this.authorize('patch', def, name, namespace);
    const mediaType = patchMediaType(request.contentType);
    const dryRun = dryRunRequested(request.query, 'PatchOptions');
    const patch = parsePatch(mediaType, await request.readBody());
    const current = this.store.get(def, name, namespace);
    if (!current) throw notFound(def, name);
    const patched = applyPatch(mediaType, current, patch);
    if (!isRecord(patched)) throw badRequest('the patch does not leave an object');
    const merged = patched as KubeObject;
    if (!isRecord(merged.metadata)) merged.metadata = {};
    // A resourceVersion the patch sets (or a JSON patch leaves) must be the current one: optimistic locking.
    const requestedVersion = merged.metadata.resourceVersion;
    if (requestedVersion !== undefined && requestedVersion !== current.metadata.resourceVersion) {
      throw conflict(def, name, STALE_OBJECT);
    }
    if (merged.metadata.name !== name) {
      throw invalid(def, name, [
        {
          type: 'FieldValueInvalid',
          field: 'metadata.name',
          value: merged.metadata.name,
          detail: 'field is immutable',
        },
      ]);
    }
    const warnings = this.checkFields(def, merged, request);
    const candidate: KubeObject = statusOnly
      ? { ...current, ...(merged.status === undefined ? {} : { status: merged.status }) }
      : merged;
    return this.commit(def, current, candidate, { request, dryRun, statusOnly, verb: 'patch', warnings });
  }

  /**
   * The shared end of update and patch: server-owned fields kept, the status subresource written only
   * through /status, validation, generation bumped on a spec change, and the provider told.
   */
  private commit(
    def: ResourceDef,
    current: KubeObject,
    candidate: KubeObject,
    options: { request: ApiRequest; dryRun: boolean; statusOnly: boolean; verb: Verb; warnings: string[] },
  ): ApiResponse {
    const name = current.metadata.name ?? '';
    const namespace = current.metadata.namespace;
    const next: KubeObject = {
      ...candidate,
      apiVersion: current.apiVersion,
      kind: current.kind,
      metadata: {
        ...candidate.metadata,
        name,
        ...(namespace === undefined ? {} : { namespace }),
        uid: current.metadata.uid,
        creationTimestamp: current.metadata.creationTimestamp,
        generation: current.metadata.generation,
        resourceVersion: current.metadata.resourceVersion,
        ...(current.metadata.deletionTimestamp ? { deletionTimestamp: current.metadata.deletionTimestamp } : {}),
      },
    };
    if (!options.statusOnly) {
      if (current.status) next.status = current.status;
      else delete next.status;
    }
    const errors = validateNewObject(def, next);
    if (errors.length > 0) throw invalid(def, name, dedupe(errors));
    const specChanged = JSON.stringify(current.spec) !== JSON.stringify(next.spec);
    if (specChanged) next.metadata.generation = (current.metadata.generation ?? 1) + 1;
    const answer = (object: KubeObject): ApiResponse =>
      this.answerObject(def, options.request, 200, object, options.verb, options.warnings);
    if (options.dryRun) return answer(next);
    if (next.metadata.deletionTimestamp && (next.metadata.finalizers ?? []).length === 0) {
      this.store.remove(def, name, namespace);
      return answer(next);
    }
    const saved = this.store.put(def, next);
    const reconcileRequested =
      current.metadata.annotations?.[RECONCILE_REQUESTED_AT] !== next.metadata.annotations?.[RECONCILE_REQUESTED_AT];
    if (specChanged || reconcileRequested) this.crossplane.changed(def, name, namespace);
    return answer(saved);
  }

  private async delete(def: ResourceDef, name: string, request: ApiRequest, namespace?: string): Promise<ApiResponse> {
    this.authorize('delete', def, name, namespace);
    // kubectl and client-go send DeleteOptions as the body; the query form is honoured too.
    const options = await this.deleteOptions(request);
    const dryRun =
      dryRunRequested(request.query, 'DeleteOptions') ||
      checkDryRun(Array.isArray(options['dryRun']) ? options['dryRun'] : [], 'DeleteOptions');
    const object = this.store.get(def, name, namespace);
    if (!object) throw notFound(def, name);
    const preconditions = isRecord(options['preconditions']) ? options['preconditions'] : {};
    const uid = preconditions['uid'];
    if (typeof uid === 'string' && uid !== object.metadata.uid) {
      throw conflict(
        def,
        name,
        `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${object.metadata.uid ?? ''}`,
      );
    }
    const version = preconditions['resourceVersion'];
    if (typeof version === 'string' && version !== object.metadata.resourceVersion) {
      throw conflict(
        def,
        name,
        `Precondition failed: ResourceVersion in precondition: ${version}, ResourceVersion in object meta: ${object.metadata.resourceVersion ?? ''}`,
      );
    }
    const finalizers = object.metadata.finalizers ?? [];
    if (finalizers.length === 0) {
      if (!dryRun) this.store.remove(def, name, namespace);
      return {
        status: 200,
        body: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Success',
          details: { name, group: def.group, kind: def.plural, uid: object.metadata.uid },
        },
        verb: 'delete',
        resource: def.plural,
      };
    }
    if (object.metadata.deletionTimestamp) return { status: 200, body: object, verb: 'delete', resource: def.plural };
    object.metadata.deletionTimestamp = kubeTime();
    object.metadata.deletionGracePeriodSeconds = 0;
    object.metadata.generation = (object.metadata.generation ?? 1) + 1;
    if (dryRun) return { status: 200, body: object, verb: 'delete', resource: def.plural };
    const saved = this.store.put(def, object);
    this.crossplane.deletionRequested(def, name, namespace);
    return { status: 200, body: saved, verb: 'delete', resource: def.plural };
  }

  private async deleteOptions(request: ApiRequest): Promise<Record<string, unknown>> {
    const raw = (await request.readBody()).toString('utf8').trim();
    if (raw === '') return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      throw badRequest(`error decoding DeleteOptions: ${error instanceof Error ? error.message : 'invalid JSON'}`);
    }
    if (!isRecord(parsed)) throw badRequest('json: cannot unmarshal into Go value of type v1.DeleteOptions');
    return parsed;
  }
}
