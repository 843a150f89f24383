/**
 * Reading objects: get, list in chunks with field and label selectors, and watch, each answered as
 * JSON or as a Table when the client asks for server-side printing.
 */
import { answerObject, type ApiRequest, type ApiResponse } from './api-exchange.js';
import type { Authorize } from './authorization.js';
import { isWatch, timeoutSecondsOf } from './request-options.js';
import { apiVersionOf, type ResourceDef } from './resources.js';
import { fieldValue, matches, parseFieldSelector, parseLabelSelector } from './selectors.js';
import { badRequest, notFound } from './status.js';
import { objectKey, type ObjectStore } from './store.js';
import { includeObjectOf, requestedTable, tableContentType, toTable } from './tables.js';
import type { KubeObject } from './types.js';

const CUSTOM_RESOURCE_FIELD_SELECTORS = ['metadata.name', 'metadata.namespace'] as const;

/**
 * One chunk of a list. As with etcd, the continue token names the key the chunk ended at and the
 * next chunk starts after it, so an object deleted in between moves no other object out of reach.
 */
function listPage(
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

export class ResourceReads {
  constructor(
    private readonly store: ObjectStore,
    private readonly authorize: Authorize,
  ) {}

  get(def: ResourceDef, name: string, request: ApiRequest, namespace?: string): ApiResponse {
    this.authorize('get', def, name, namespace);
    const object = this.store.get(def, name, namespace);
    if (!object) throw notFound(def, name);
    return answerObject(def, request, 200, object, 'get');
  }

  /** A list, or a watch when the query asks for one; custom resources and namespaces select by name and namespace. */
  list(
    def: ResourceDef,
    request: ApiRequest,
    namespace: string | undefined,
    supportedFields: readonly string[] = CUSTOM_RESOURCE_FIELD_SELECTORS,
  ): ApiResponse {
    const fields = parseFieldSelector(request.query.get('fieldSelector'), supportedFields);
    const labels = parseLabelSelector(request.query.get('labelSelector'));
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
    const { metadata, page } = listPage(items, this.store.currentRevision(), request.query);
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
}
