/**
 * The Kubernetes REST API for the stand-in's resources: paths, verbs, query parameters and answers
 * as kube-apiserver serves them for cluster-scoped custom resources and core/v1 events.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { SimulatedCrossplane } from './crossplane.js';
import { EVENT_FIELD_SELECTORS } from './events.js';
import { isForbidden, type Faults } from './faults.js';
import {
  apiVersionOf,
  coreResourceList,
  coreVersions,
  EVENTS,
  findCustomResource,
  groupDocument,
  groupList,
  groupVersionResourceList,
  VERSION_INFO,
  type ResourceDef,
} from './resources.js';
import { fieldValue, matches, parseFieldSelector, parseLabelSelector } from './selectors.js';
import {
  alreadyExists,
  badRequest,
  forbidden,
  invalid,
  methodNotAllowed,
  notFound,
  pathNotFound,
  StatusError,
  unsupportedMediaType,
} from './status.js';
import type { ObjectStore } from './store.js';
import { kubeTime, type KubeObject, type Verb } from './types.js';
import { isRecord, validateNewObject, validateObjectName } from './validation.js';

export interface ApiRequest {
  method: string;
  segments: string[];
  query: URLSearchParams;
  contentType: string;
  readBody: () => Promise<Buffer>;
  serverAddress: string;
}

export interface ApiResponse {
  status: number;
  body: unknown;
  /** What RBAC would have checked, for the request log. */
  verb?: Verb;
  resource?: string;
}

// apiserver's names.SimpleNameGenerator: consonants and digits that cannot spell words.
const GENERATED_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const GENERATED_SUFFIX_LENGTH = 5;
const MAX_GENERATED_PREFIX = 63 - GENERATED_SUFFIX_LENGTH;
const CUSTOM_RESOURCE_FIELD_SELECTORS = ['metadata.name', 'metadata.namespace'] as const;

function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < GENERATED_SUFFIX_LENGTH; i += 1)
    suffix += GENERATED_ALPHABET[randomInt(GENERATED_ALPHABET.length)];
  return `${prefix.slice(0, MAX_GENERATED_PREFIX)}${suffix}`;
}

function dryRunRequested(query: URLSearchParams, kind: 'CreateOptions' | 'DeleteOptions' | 'PatchOptions'): boolean {
  const values = query.getAll('dryRun');
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

function listOf(
  def: ResourceDef,
  items: KubeObject[],
  resourceVersion: string,
  query: URLSearchParams,
): Record<string, unknown> {
  const limit = Number(query.get('limit') ?? 0);
  const start =
    Number(query.get('continue') ? Buffer.from(query.get('continue') ?? '', 'base64url').toString() : 0) || 0;
  const page = limit > 0 ? items.slice(start, start + limit) : items.slice(start);
  const remaining = items.length - start - page.length;
  return {
    apiVersion: apiVersionOf(def),
    kind: `${def.kind}List`,
    metadata: {
      resourceVersion,
      ...(remaining > 0
        ? { continue: Buffer.from(String(start + page.length)).toString('base64url'), remainingItemCount: remaining }
        : {}),
    },
    items: page,
  };
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
        body: { paths: ['/api', '/api/v1', '/apis', '/healthz', '/livez', '/readyz', '/version'] },
      };
    }
    if (root === 'version' && rest.length === 0 && method === 'GET') return { status: 200, body: VERSION_INFO };
    if (root === 'api') return this.core(request, rest);
    if (root === 'apis') return this.groups(request, rest);
    throw pathNotFound();
  }

  private authorize(verb: Verb, def: ResourceDef, name?: string, namespace?: string): void {
    if (isForbidden(this.faults(), verb, def.plural)) throw forbidden(this.user, verb, def, name, namespace);
  }

  private async core(request: ApiRequest, segments: string[]): Promise<ApiResponse> {
    const get = request.method === 'GET';
    if (segments.length === 0 && get) return { status: 200, body: coreVersions(request.serverAddress) };
    if (segments[0] !== 'v1') throw pathNotFound();
    const path = segments.slice(1);
    if (path.length === 0 && get) return { status: 200, body: coreResourceList() };
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
    this.authorize('list', EVENTS, undefined, namespace);
    const fields = parseFieldSelector(request.query.get('fieldSelector'), EVENT_FIELD_SELECTORS);
    const labels = parseLabelSelector(request.query.get('labelSelector'));
    const items = this.store
      .list(EVENTS, namespace)
      .filter((e) => matches(fields, (key) => fieldValue(e, key)))
      .filter((e) => matches(labels, (key) => e.metadata.labels?.[key]));
    return {
      status: 200,
      body: listOf(EVENTS, items, this.store.currentRevision(), request.query),
      verb: 'list',
      resource: 'events',
    };
  }

  private getEvent(request: ApiRequest, namespace: string, name: string): ApiResponse {
    if (request.method !== 'GET') throw methodNotAllowed();
    this.authorize('get', EVENTS, name, namespace);
    const event = this.store.get(EVENTS, name, namespace);
    if (!event) throw notFound(EVENTS, name);
    return { status: 200, body: event, verb: 'get', resource: 'events' };
  }

  private async groups(request: ApiRequest, segments: string[]): Promise<ApiResponse> {
    const get = request.method === 'GET';
    const [group = '', version = '', plural = '', name, ...extra] = segments;
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
    if (!def || extra.length > 1) throw pathNotFound();
    if (extra.length === 1) {
      // The status subresource exists on a real cluster, but only the provider writes it.
      throw methodNotAllowed();
    }
    if (name === undefined) {
      if (request.method === 'GET') return this.list(def, request);
      if (request.method === 'POST') return this.create(def, request);
      throw methodNotAllowed();
    }
    if (request.method === 'GET') return this.get(def, name);
    if (request.method === 'DELETE') return this.delete(def, name, request);
    if (request.method === 'PATCH') return this.patch(def, name, request);
    throw methodNotAllowed();
  }

  private list(def: ResourceDef, request: ApiRequest): ApiResponse {
    const watch = request.query.get('watch');
    if (watch === 'true' || watch === '1') throw methodNotAllowed();
    this.authorize('list', def);
    const fields = parseFieldSelector(request.query.get('fieldSelector'), CUSTOM_RESOURCE_FIELD_SELECTORS);
    const labels = parseLabelSelector(request.query.get('labelSelector'));
    const items = this.store
      .list(def)
      .filter((o) => matches(fields, (key) => fieldValue(o, key)))
      .filter((o) => matches(labels, (key) => o.metadata.labels?.[key]));
    return {
      status: 200,
      body: listOf(def, items, this.store.currentRevision(), request.query),
      verb: 'list',
      resource: def.plural,
    };
  }

  private get(def: ResourceDef, name: string): ApiResponse {
    this.authorize('get', def, name);
    const object = this.store.get(def, name);
    if (!object) throw notFound(def, name);
    return { status: 200, body: object, verb: 'get', resource: def.plural };
  }

  private async parseNewObject(def: ResourceDef, request: ApiRequest): Promise<KubeObject> {
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

  private async create(def: ResourceDef, request: ApiRequest): Promise<ApiResponse> {
    this.authorize('create', def);
    const dryRun = dryRunRequested(request.query, 'CreateOptions');
    const object = await this.parseNewObject(def, request);
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
    if (this.faults().conflictOnCreate || this.store.get(def, name)) throw alreadyExists(def, name);

    // Fields only the server sets; status is a subresource, so a create cannot set it.
    const { status: _ignoredStatus, ...withoutStatus } = object;
    const stored: KubeObject = {
      ...withoutStatus,
      metadata: {
        ...Object.fromEntries(
          Object.entries(metadata).filter(
            ([k]) =>
              ![
                'namespace',
                'resourceVersion',
                'deletionTimestamp',
                'deletionGracePeriodSeconds',
                'managedFields',
                'selfLink',
              ].includes(k),
          ),
        ),
        name,
        uid: randomUUID(),
        generation: 1,
        creationTimestamp: kubeTime(),
      },
    };
    if (dryRun) return { status: 201, body: stored, verb: 'create', resource: def.plural };
    const saved = this.store.put(def, stored);
    this.crossplane.created(def, name);
    return { status: 201, body: saved, verb: 'create', resource: def.plural };
  }

  private async patch(def: ResourceDef, name: string, request: ApiRequest): Promise<ApiResponse> {
    this.authorize('patch', def, name);
    const mediaType = request.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    // Custom resources accept no strategic merge patch; the stand-in implements merge patch only.
    if (mediaType !== 'application/merge-patch+json') throw unsupportedMediaType();
    const dryRun = dryRunRequested(request.query, 'PatchOptions');
    let patch: unknown;
    try {
      patch = JSON.parse((await request.readBody()).toString('utf8'));
    } catch (error) {
      throw badRequest(`error decoding patch: ${error instanceof Error ? error.message : 'invalid JSON'}`);
    }
    if (!isRecord(patch)) throw badRequest('json: cannot unmarshal into Go value of type map[string]interface {}');
    const current = this.store.get(def, name);
    if (!current) throw notFound(def, name);
    const requestedVersion = isRecord(patch['metadata']) ? patch['metadata']['resourceVersion'] : undefined;
    if (requestedVersion !== undefined && requestedVersion !== current.metadata.resourceVersion) {
      throw new StatusError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${def.plural}.${def.group} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        { name, group: def.group, kind: def.plural },
      );
    }
    const merged = mergePatch(current, patch) as KubeObject;
    if (!isRecord(merged['metadata'])) merged.metadata = {};
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
    // Server-owned fields and the status subresource are not changed through the main resource.
    const patched: KubeObject = {
      ...merged,
      apiVersion: current.apiVersion,
      kind: current.kind,
      metadata: {
        ...merged.metadata,
        uid: current.metadata.uid,
        creationTimestamp: current.metadata.creationTimestamp,
        generation: current.metadata.generation,
        ...(current.metadata.deletionTimestamp ? { deletionTimestamp: current.metadata.deletionTimestamp } : {}),
      },
      ...(current.status ? { status: current.status } : {}),
    };
    if (!current.status) delete patched.status;
    const errors = validateNewObject(def, patched);
    if (errors.length > 0) throw invalid(def, name, dedupe(errors));
    const specChanged = JSON.stringify(current.spec) !== JSON.stringify(patched.spec);
    if (specChanged) patched.metadata.generation = (current.metadata.generation ?? 1) + 1;
    if (dryRun) return { status: 200, body: patched, verb: 'patch', resource: def.plural };
    if (patched.metadata.deletionTimestamp && (patched.metadata.finalizers ?? []).length === 0) {
      this.store.remove(def, name);
      return { status: 200, body: patched, verb: 'patch', resource: def.plural };
    }
    const saved = this.store.put(def, patched);
    if (specChanged) this.crossplane.created(def, name);
    return { status: 200, body: saved, verb: 'patch', resource: def.plural };
  }

  private async delete(def: ResourceDef, name: string, request: ApiRequest): Promise<ApiResponse> {
    this.authorize('delete', def, name);
    const dryRun = dryRunRequested(request.query, 'DeleteOptions');
    await request.readBody(); // DeleteOptions may come as a body; the stand-in honours only the query.
    const object = this.store.get(def, name);
    if (!object) throw notFound(def, name);
    const finalizers = object.metadata.finalizers ?? [];
    if (finalizers.length === 0) {
      if (!dryRun) this.store.remove(def, name);
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
    this.crossplane.deletionRequested(def, name);
    return { status: 200, body: saved, verb: 'delete', resource: def.plural };
  }
}

/** RFC 7386 JSON merge patch: objects merge, null removes, anything else replaces. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return patch;
  const result: Record<string, unknown> = isRecord(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
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
