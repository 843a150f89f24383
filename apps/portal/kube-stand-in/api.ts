/**
 * The Kubernetes REST API for the stand-in's resources: paths and verbs routed as kube-apiserver
 * serves them for cluster-scoped and namespaced custom resources, core/v1 events and namespaces,
 * to the reads and writes that carry them out.
 */
import type { ApiRequest, ApiResponse } from './api-exchange.js';
import { authorizer } from './authorization.js';
import type { SimulatedCrossplane } from './crossplane.js';
import { EVENT_FIELD_SELECTORS } from './events.js';
import type { Faults } from './faults.js';
import { openApiDocument, openApiRoot } from './openapi.js';
import { ResourceReads } from './reads.js';
import {
  coreResourceList,
  coreVersions,
  EVENTS,
  findCustomResource,
  groupDocument,
  groupList,
  groupVersionResourceList,
  NAMESPACES,
  VERSION_INFO,
} from './resources.js';
import { methodNotAllowed, pathNotFound } from './status.js';
import type { ObjectStore } from './store.js';
import { ResourceWrites } from './writes.js';

export class KubeApi {
  private readonly reads: ResourceReads;
  private readonly writes: ResourceWrites;

  constructor(store: ObjectStore, crossplane: SimulatedCrossplane, faults: () => Faults, user: string) {
    const authorize = authorizer(faults, user);
    this.reads = new ResourceReads(store, authorize);
    this.writes = new ResourceWrites(store, crossplane, faults, authorize);
  }

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
    return this.reads.list(EVENTS, request, namespace, EVENT_FIELD_SELECTORS);
  }

  private getEvent(request: ApiRequest, namespace: string, name: string): ApiResponse {
    if (request.method !== 'GET') throw methodNotAllowed();
    return this.reads.get(EVENTS, name, request, namespace);
  }

  private async namespaces(request: ApiRequest, name: string | undefined): Promise<ApiResponse> {
    if (request.method === 'GET' && name === undefined) return this.reads.list(NAMESPACES, request, undefined);
    if (request.method === 'GET' && name !== undefined) return this.reads.get(NAMESPACES, name, request);
    if (request.method !== 'POST' || name !== undefined) throw methodNotAllowed();
    return this.writes.createNamespace(request);
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
      if (request.method === 'GET') return this.reads.list(def, request, namespace);
      if (request.method === 'POST') return this.writes.create(def, request, namespace);
      throw methodNotAllowed();
    }
    if (subresource === 'status') {
      if (request.method === 'GET') return this.reads.get(def, name, request, namespace);
      if (request.method === 'PUT') return this.writes.update(def, name, request, true, namespace);
      if (request.method === 'PATCH') return this.writes.patch(def, name, request, true, namespace);
      throw methodNotAllowed();
    }
    if (request.method === 'GET') return this.reads.get(def, name, request, namespace);
    if (request.method === 'PUT') return this.writes.update(def, name, request, false, namespace);
    if (request.method === 'PATCH') return this.writes.patch(def, name, request, false, namespace);
    if (request.method === 'DELETE') return this.writes.delete(def, name, request, namespace);
    throw methodNotAllowed();
  }
}
