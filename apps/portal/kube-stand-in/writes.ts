/**
 * Writing objects as kube-apiserver does: create (with generateName, schema validation and the
 * denying admission policy), update and patch under optimistic locking, the status subresource, and
 * delete with preconditions and finalizers; the simulated provider is told of each change.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { answerObject, type ApiRequest, type ApiResponse } from './api-exchange.js';
import type { Authorize } from './authorization.js';
import { RECONCILE_REQUESTED_AT, type SimulatedCrossplane } from './crossplane.js';
import type { Faults } from './faults.js';
import { namespaceFromBody, requireNamespace } from './namespaces.js';
import { applyPatch, parsePatch, patchMediaType } from './patches.js';
import { checkFields, parseDeleteOptions, parseObject } from './request-bodies.js';
import { checkDryRun, dryRunRequested } from './request-options.js';
import { NAMESPACES, type ResourceDef } from './resources.js';
import { alreadyExists, badRequest, conflict, invalid, notFound, STALE_OBJECT, StatusError } from './status.js';
import type { ObjectStore } from './store.js';
import { kubeTime, type KubeObject, type Verb } from './types.js';
import { isRecord, validateNewObject, validateObjectName } from './validation.js';

// apiserver's names.SimpleNameGenerator: consonants and digits that cannot spell words.
const GENERATED_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const GENERATED_SUFFIX_LENGTH = 5;
const MAX_GENERATED_PREFIX = 63 - GENERATED_SUFFIX_LENGTH;
// Fields the server owns: a create or update cannot set them, whatever the body says.
const SERVER_OWNED_METADATA = [
  'namespace',
  'resourceVersion',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'managedFields',
  'selfLink',
];

function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < GENERATED_SUFFIX_LENGTH; i += 1)
    suffix += GENERATED_ALPHABET[randomInt(GENERATED_ALPHABET.length)];
  return `${prefix.slice(0, MAX_GENERATED_PREFIX)}${suffix}`;
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

export class ResourceWrites {
  constructor(
    private readonly store: ObjectStore,
    private readonly crossplane: SimulatedCrossplane,
    private readonly faults: () => Faults,
    private readonly authorize: Authorize,
  ) {}

  async createNamespace(request: ApiRequest): Promise<ApiResponse> {
    this.authorize('create', NAMESPACES);
    const dryRun = dryRunRequested(request.query, 'CreateOptions');
    const object = namespaceFromBody((await request.readBody()).toString('utf8'));
    const namespaceName = object.metadata.name ?? '';
    if (this.store.get(NAMESPACES, namespaceName)) throw alreadyExists(NAMESPACES, namespaceName);
    return answerObject(NAMESPACES, request, 201, dryRun ? object : this.store.put(NAMESPACES, object), 'create');
  }

  async create(def: ResourceDef, request: ApiRequest, namespace?: string): Promise<ApiResponse> {
    this.authorize('create', def, undefined, namespace);
    const dryRun = dryRunRequested(request.query, 'CreateOptions');
    const object = await parseObject(def, request);
    const bodyNamespace = object.metadata.namespace;
    if (namespace !== undefined && bodyNamespace !== undefined && bodyNamespace !== '' && bodyNamespace !== namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    if (namespace !== undefined) requireNamespace(this.store, namespace);
    const warnings = checkFields(def, object, request);
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
    if (dryRun) return answerObject(def, request, 201, stored, 'create', warnings);
    const saved = this.store.put(def, stored);
    this.crossplane.created(def, name, namespace);
    return answerObject(def, request, 201, saved, 'create', warnings);
  }

  /** PUT: the whole object, accepted only at the resourceVersion it was read at. */
  async update(
    def: ResourceDef,
    name: string,
    request: ApiRequest,
    statusOnly: boolean,
    namespace?: string,
  ): Promise<ApiResponse> {
    this.authorize('update', def, name, namespace);
    const dryRun = dryRunRequested(request.query, 'UpdateOptions');
    const object = await parseObject(def, request);
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
    const warnings = checkFields(def, object, request);
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

  async patch(
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
    const warnings = checkFields(def, merged, request);
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
      answerObject(def, options.request, 200, object, options.verb, options.warnings);
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

  async delete(def: ResourceDef, name: string, request: ApiRequest, namespace?: string): Promise<ApiResponse> {
    this.authorize('delete', def, name, namespace);
    // kubectl and client-go send DeleteOptions as the body; the query form is honoured too.
    const options = await parseDeleteOptions(request);
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
}
