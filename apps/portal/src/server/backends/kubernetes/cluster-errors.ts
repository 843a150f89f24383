import 'server-only';
import {
  ConflictError,
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
  PlatformError,
  PlatformUnavailableError,
  UpstreamError,
} from '../../model/errors';
import { logger } from '../../runtime/logger';
import type { ClusterCall } from './cluster-calls';

/**
 * Turns what @kubernetes/client-node throws into the portal's platform errors, faithfully:
 * the API server's Status (reason, code, message) decides, a failed connection is 503, and
 * nothing unrecognised leaks: it becomes a 502 whose details only reach the log. The cluster's
 * own text reaches a caller only where it helps them (a policy that denied the account) and
 * never when it names who the portal is in the cluster (`User "system:serviceaccount:ns:name"`):
 * that is for the platform team, so it goes to the log.
 */

interface KubeStatus {
  kind?: string;
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: { name?: string; kind?: string; causes?: { field?: string; message?: string }[] };
}

/** Node's and undici's (client-node's fetch) codes for a connection that could not be made or was lost. */
const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  ECONNABORTED: 'connection aborted',
  EPIPE: 'connection closed',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed',
  UND_ERR_CLOSED: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  UND_ERR_BODY_TIMEOUT: 'no answer in time',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** ApiException carries the HTTP code and the raw body text (a JSON Status when the API server wrote it). */
function apiException(error: unknown): { code: number; status: KubeStatus } | undefined {
  if (!isRecord(error) || typeof error['code'] !== 'number' || !('body' in error)) return undefined;
  const body = error['body'];
  let status: KubeStatus = {};
  if (typeof body === 'string' && body.trim().startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (isRecord(parsed)) status = parsed;
    } catch {
      // Not a Status (e.g. an HTML page from a proxy): the code alone decides.
    }
  } else if (isRecord(body)) {
    status = body;
  }
  return { code: error['code'], status };
}

function networkReason(error: unknown): string | undefined {
  // undici's fetch (client-node's) fails with TypeError('fetch failed'); its cause names the code.
  let fetchFailed = false;
  for (
    let current: unknown = error, depth = 0;
    isRecord(current) && depth < 5;
    current = current['cause'], depth += 1
  ) {
    if (current['name'] === 'AbortError' || current['name'] === 'TimeoutError' || current['type'] === 'aborted')
      return 'no answer in time';
    const code = current['code'];
    if (typeof code === 'string' && NETWORK_ERRORS[code]) return NETWORK_ERRORS[code];
    if (current['type'] === 'system' || current['name'] === 'FetchError') {
      return typeof current['message'] === 'string' && /socket hang up/.test(current['message'])
        ? 'connection closed'
        : 'connection failed';
    }
    if (current['name'] === 'TypeError' && current['message'] === 'fetch failed') fetchFailed = true;
  }
  return fetchFailed ? 'connection failed' : undefined;
}

/** The API server's field paths that the workflow's fields correspond to. */
function fieldsFrom(status: KubeStatus): Record<string, string> | undefined {
  const fields: Record<string, string> = {};
  for (const cause of status.details?.causes ?? []) {
    if (cause.field === 'metadata.name' || cause.field === 'metadata.generateName')
      fields['name'] ??= cause.message ?? 'Rejected by the cluster';
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/** Text that names who the portal is in the cluster, as the API server's refusals do. */
const CLUSTER_IDENTITY = /system:serviceaccount|\bUser "/;

/** The cluster's message if a caller may see it, else undefined (it goes to the log instead). */
function showable(message: string): string | undefined {
  return CLUSTER_IDENTITY.test(message) ? undefined : message;
}

/** The cluster refused the portal itself: the details are the platform team's, in the log. */
function logRefusal(call: ClusterCall, code: number, status: KubeStatus): void {
  logger().warn(
    { call: call.purpose, code, reason: status.reason, clusterMessage: status.message },
    `the platform cluster refused to ${call.purpose}`,
  );
}

export interface ErrorSubject {
  /** The object the call was about, when it was about one. */
  name?: string;
}

export function mapClusterError(error: unknown, call: ClusterCall, subject: ErrorSubject = {}): PlatformError {
  if (error instanceof PlatformError) return error;
  const options = { cause: error };

  const reason = networkReason(error);
  if (reason) {
    return new PlatformUnavailableError(
      `The platform cluster is unreachable (${reason}); could not ${call.purpose}. Try again shortly.`,
      options,
    );
  }

  const api = apiException(error);
  if (!api) return new UpstreamError(`Unexpected failure while trying to ${call.purpose}`, options);
  const { code, status } = api;
  const clusterMessage = status.message ?? `HTTP ${code}`;
  const shown = showable(clusterMessage);
  if (shown === undefined || code === 401 || code === 403) logRefusal(call, code, status);
  const what = subject.name ? `"${subject.name}"` : call.resource;

  switch (status.reason ?? '') {
    case 'NotFound':
      // A write into a namespace that does not exist (namespaced scope): the request's fault, and the
      // portal creates no namespaces.
      if (status.details?.kind === 'namespaces' && status.details.name) {
        const problem = `namespace "${status.details.name}" does not exist; the platform team creates a team's namespace before the portal can place accounts in it`;
        return new InvalidRequestError(`The storage account cannot be placed: ${problem}`, {
          ...options,
          fields: { application: problem },
        });
      }
      if (!subject.name) {
        // The collection itself is missing: the provider's CRD is not installed on this cluster.
        return new PlatformUnavailableError(
          `The platform cluster does not serve ${call.resource}.${call.group}; is the provider installed?`,
          options,
        );
      }
      return new NotFoundError(`Storage account ${what} not found`, options);
    case 'AlreadyExists':
      return new ConflictError(`A storage account named ${what} already exists`, options);
    case 'Conflict':
      return new ConflictError(`The cluster reported a conflict${shown ? `: ${shown}` : ''}`, options);
    case 'Invalid':
    case 'BadRequest': {
      const fields = fieldsFrom(status);
      return new InvalidRequestError(`The cluster rejected the storage account${shown ? `: ${shown}` : ''}`, {
        ...options,
        ...(fields ? { fields } : {}),
      });
    }
    case 'Forbidden':
      return forbidden(call, options);
    case 'Unauthorized':
      return unauthorized(options);
    default:
      break;
  }
  // No Status reason (or an unknown one): the HTTP code decides.
  if (code === 401) return unauthorized(options);
  if (code === 403) return forbidden(call, options);
  if (code === 404)
    return subject.name
      ? new NotFoundError(`Storage account ${what} not found`, options)
      : new PlatformUnavailableError(`The platform cluster does not serve ${call.resource}.${call.group}`, options);
  if (code === 409) return new ConflictError(`A storage account named ${what} already exists`, options);
  if (code === 400 || code === 422)
    return new InvalidRequestError(`The cluster rejected the storage account${shown ? `: ${shown}` : ''}`, options);
  if (code === 429 || code >= 500) {
    return new PlatformUnavailableError(
      `The platform cluster is unavailable (HTTP ${code}); could not ${call.purpose}. Try again shortly.`,
      options,
    );
  }
  return new UpstreamError(`The platform cluster answered HTTP ${code} while trying to ${call.purpose}`, {
    ...options,
    status: 502,
  });
}

/**
 * 403 from the cluster: the portal's own permissions (its role) do not cover the call. The
 * cluster's text names the portal's service account, so the caller gets what failed and whom to
 * ask; the text itself is in the log (logRefusal).
 */
function forbidden(call: ClusterCall, options: { cause: unknown }): ForbiddenError {
  return new ForbiddenError(
    `The portal is not allowed to ${call.purpose}; ask the platform team to check the portal's permissions in the cluster`,
    options,
  );
}

/**
 * 401 from the cluster means the portal's own credentials (its service-account token) were
 * refused. The person using the portal cannot fix that by logging in, and the portal has no
 * login to challenge them with, so it travels as 403 with a message for the platform team.
 */
function unauthorized(options: { cause: unknown }): ForbiddenError {
  return new ForbiddenError(
    "The platform cluster refused the portal's credentials; ask the platform team to check the portal's service account",
    options,
  );
}
