/**
 * One Kubernetes API request and its answer as the router and the handlers see them, and how an
 * object is answered: as itself, or as a one-row Table when the client asked for server-side printing.
 */
import type { ResourceDef } from './resources.js';
import { includeObjectOf, requestedTable, tableContentType, toTable } from './tables.js';
import type { KubeObject, Verb } from './types.js';
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

export function answerObject(
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
