import 'server-only';
import {
  accountNamespace,
  CLUSTER_SCOPE,
  DEFAULT_NAMESPACE_TEMPLATE,
  DEFAULT_PROVIDER_CONFIG,
  NAMESPACE_PLACEHOLDERS,
  namespaceNameProblem,
  type AccountScope,
} from '@/lib/platform/account-scope';
import { AZURE_PUBLIC_REGIONS, isAzureRegion, type Location } from '@/lib/platform/storage-rules';
import {
  gotUrl,
  parseSwitch,
  SWITCH_WORDS_HINT,
  TracingSettingError,
  tracingSwitch,
  type TracingSwitch,
} from '@books/shared-rules';
import { parseAuthConfig, parseDatabaseUrl, parseOptionalPublicUrl, type AuthConfig } from './auth-config';

/**
 * The portal's environment, parsed once. A bad value throws ConfigError naming the variable;
 * src/instrumentation.ts calls loadConfig() at server start so the process stops right away.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface PortalConfig {
  /** Development mode: answer from the mock backend, never contact a cluster. */
  mockPlatform: boolean;
  port: number;
  /** Where Prometheus scrapes GET /metrics (PORTAL_METRICS_PORT); absent: no metrics listener. */
  metricsPort?: number;
  logLevel: LogLevel;
  /** Azure regions a storage account may be placed in: every public region unless narrowed. */
  allowedLocations: readonly Location[];
  /** Who is signed in and how (PORTAL_AUTH and the variables of its mode). */
  auth: AuthConfig;
  /**
   * PostgreSQL for the intent ledger (and oidc sessions), shared by replicas and kept across
   * restarts; unset keeps intent in this process's memory.
   */
  databaseUrl?: string;
  /** Cloud observation through Azure Resource Manager; absent without PORTAL_AZURE_SUBSCRIPTION_ID. */
  azure?: AzureObservationConfig;
  /** The portal's external origin (PORTAL_PUBLIC_URL; required in oidc mode); https turns on HSTS. */
  publicUrl?: URL;
  /** How much one requester may create; admins are not limited. */
  createLimits: CreateLimits;
  /** OpenTelemetry traces: on with an OTLP endpoint (the standard OTEL_* variables; docs/operations.md). */
  tracing: TracingSwitch;
  /** A trace viewer's URL with `{traceId}` in it: the account page links each history entry to its trace. */
  traceUrlTemplate?: string;
  /** Live event streams (GET /api/platform/events) one user may hold open at once (PORTAL_MAX_STREAMS_PER_USER). */
  maxStreamsPerUser: number;
  /** Cluster-scoped Accounts (Crossplane v1) or namespaced ones (v2) (PORTAL_ACCOUNT_SCOPE and its variables). */
  accountScope: AccountScope;
}

export interface AzureObservationConfig {
  subscriptionId: string;
  /** Another Resource Manager endpoint than https://management.azure.com (a sovereign cloud, a test stand-in). */
  armEndpoint?: string;
  /** How long an observation is used before it is read again in the background. */
  observationTtlSeconds: number;
}

export interface CreateLimits {
  /** Live (not deleting) accounts one requester may own (PORTAL_MAX_ACCOUNTS_PER_USER). */
  maxAccountsPerUser: number;
  /** Creates one requester may make in any hour (PORTAL_MAX_CREATES_PER_HOUR). */
  maxCreatesPerHour: number;
}

type Env = Record<string, string | undefined>;

/** A switch whose "unset" differs from "off", so a word outside both lists is refused rather than guessed. */
function parseBoolean(env: Env, name: string): boolean | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  // The switch words both apps accept (the Books API's contract), from the shared package.
  const value = parseSwitch(raw);
  if (value === undefined) throw new ConfigError(`${name} must be ${SWITCH_WORDS_HINT}, got "${raw}"`);
  return value;
}

function parsePort(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) {
    throw new ConfigError(`${name} must be a port number from 1 to 65535, got "${raw}"`);
  }
  return port;
}

function parseMetricsPort(env: Env): number | undefined {
  if ((env.PORTAL_METRICS_PORT?.trim() ?? '') === '') return undefined;
  const port = parsePort(env, 'PORTAL_METRICS_PORT', 0);
  if (port === parsePort(env, 'PORTAL_PORT', 3000)) {
    throw new ConfigError('PORTAL_METRICS_PORT must differ from PORTAL_PORT: the metrics have a listener of their own');
  }
  return port;
}

function parseLogLevel(env: Env, name: string, fallback: LogLevel): LogLevel {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const level = LOG_LEVELS.find((candidate) => candidate === raw.toLowerCase());
  if (!level) throw new ConfigError(`${name} must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return level;
}

/** A whole number from 1 up; a limit of 0 would be a role in disguise (see PORTAL_REQUESTER_GROUPS). */
function parseCount(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const count = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(count) || count < 1) {
    throw new ConfigError(`${name} must be a whole number of at least 1, got "${raw}"`);
  }
  return count;
}

function parseLocations(env: Env, name: string): readonly Location[] {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return AZURE_PUBLIC_REGIONS;
  const names = raw
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
  const unknown = names.filter((entry) => !isAzureRegion(entry));
  if (names.length === 0 || unknown.length > 0) {
    throw new ConfigError(
      `${name} must be a comma-separated list of Azure public region names (e.g. westeurope,westus3), got "${raw}"`,
    );
  }
  return [...new Set(names)].filter(isAzureRegion);
}

const SUBSCRIPTION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parseAzureObservation(env: Env): AzureObservationConfig | undefined {
  const subscriptionId = env['PORTAL_AZURE_SUBSCRIPTION_ID']?.trim() || undefined;
  const endpoint = env['PORTAL_AZURE_ARM_ENDPOINT']?.trim() || undefined;
  const ttlRaw = env['PORTAL_OBSERVATION_TTL_SECONDS']?.trim() || undefined;
  const ttl = ttlRaw === undefined ? 60 : Number(ttlRaw);
  if (ttlRaw !== undefined && (!/^\d+$/.test(ttlRaw) || ttl < 1 || ttl > 86_400)) {
    throw new ConfigError(
      `PORTAL_OBSERVATION_TTL_SECONDS must be a whole number of seconds from 1 to 86400, got "${ttlRaw}"`,
    );
  }
  if (subscriptionId === undefined) {
    if (endpoint !== undefined) {
      throw new ConfigError(
        'PORTAL_AZURE_ARM_ENDPOINT is set but PORTAL_AZURE_SUBSCRIPTION_ID is not: set both to observe Azure',
      );
    }
    return undefined;
  }
  if (!SUBSCRIPTION_ID.test(subscriptionId)) {
    throw new ConfigError(`PORTAL_AZURE_SUBSCRIPTION_ID must be a subscription id (a GUID), got "${subscriptionId}"`);
  }
  let armEndpoint: string | undefined;
  if (endpoint !== undefined) {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw new ConfigError(`PORTAL_AZURE_ARM_ENDPOINT must be an https URL${gotUrl(endpoint)}`);
    }
    // The SDK sends its bearer token only over https.
    if (url.protocol !== 'https:' || url.search || url.hash || url.username || url.password) {
      throw new ConfigError(
        `PORTAL_AZURE_ARM_ENDPOINT must be an https URL without query or credentials${gotUrl(endpoint)}`,
      );
    }
    armEndpoint = url.origin;
  }
  return {
    subscriptionId: subscriptionId.toLowerCase(),
    ...(armEndpoint ? { armEndpoint } : {}),
    observationTtlSeconds: ttl,
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** Read at start whether or not tracing is on, so a mistake shows before anyone follows a link. */
function parseTraceUrlTemplate(env: Env): string | undefined {
  const template = env.PORTAL_TRACE_URL_TEMPLATE?.trim();
  if (template === undefined || template === '') return undefined;
  if (!template.includes('{traceId}')) {
    throw new ConfigError('PORTAL_TRACE_URL_TEMPLATE must contain {traceId}, where the trace id goes');
  }
  let url: URL | undefined;
  try {
    url = new URL(template.replaceAll('{traceId}', '0af7651916cd43dd8448eb211c80319c'));
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new ConfigError('PORTAL_TRACE_URL_TEMPLATE must be an http(s) URL once {traceId} is filled in');
  }
  return template;
}

/** A Kubernetes object name (RFC 1123 subdomain), as a ClusterProviderConfig's name must be. */
const OBJECT_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function parseAccountScope(env: Env): AccountScope {
  const raw = env.PORTAL_ACCOUNT_SCOPE?.trim().toLowerCase() || 'cluster';
  const template = env.PORTAL_NAMESPACE_TEMPLATE?.trim() || undefined;
  const providerConfig = env.PORTAL_PROVIDER_CONFIG?.trim() || undefined;
  if (raw === 'cluster') {
    // Set for a namespaced deployment but ignored here: say so rather than run in the other scope.
    const stray = template !== undefined ? 'PORTAL_NAMESPACE_TEMPLATE' : providerConfig ? 'PORTAL_PROVIDER_CONFIG' : '';
    if (stray) throw new ConfigError(`${stray} applies only with PORTAL_ACCOUNT_SCOPE=namespaced`);
    return CLUSTER_SCOPE;
  }
  if (raw !== 'namespaced') {
    throw new ConfigError(
      `PORTAL_ACCOUNT_SCOPE must be cluster or namespaced, got "${env.PORTAL_ACCOUNT_SCOPE?.trim()}"`,
    );
  }
  const namespaceTemplate = template ?? DEFAULT_NAMESPACE_TEMPLATE;
  // Filled with the shortest names an application and environment may have, the rest must already be a namespace name.
  const sample = accountNamespace(
    { kind: 'namespaced', namespaceTemplate, providerConfig: '' },
    {
      application: 'a',
      environment: 'dev',
    },
  );
  const leftover = NAMESPACE_PLACEHOLDERS.reduce(
    (text, placeholder) => text.replaceAll(placeholder, ''),
    namespaceTemplate,
  );
  if (sample === undefined || /[{}]/.test(leftover) || namespaceNameProblem(sample) !== undefined) {
    throw new ConfigError(
      `PORTAL_NAMESPACE_TEMPLATE must be a namespace name in which ${NAMESPACE_PLACEHOLDERS.join(' and ')} may stand for the account's, got "${namespaceTemplate}"`,
    );
  }
  const config = providerConfig ?? DEFAULT_PROVIDER_CONFIG;
  if (config.length > 253 || !OBJECT_NAME.test(config)) {
    throw new ConfigError(`PORTAL_PROVIDER_CONFIG must be the name of a ClusterProviderConfig, got "${config}"`);
  }
  return { kind: 'namespaced', namespaceTemplate, providerConfig: config };
}

function parseTracing(env: Env): TracingSwitch {
  try {
    return tracingSwitch(env);
  } catch (error) {
    if (error instanceof TracingSettingError) throw new ConfigError(`${error.variable} ${error.reason}`);
    throw error;
  }
}

export function parseConfig(env: Env): PortalConfig {
  const explicitMock = parseBoolean(env, 'PORTAL_MOCK_PLATFORM');
  // `next dev` runs with NODE_ENV=development; an explicit PORTAL_MOCK_PLATFORM=false still wins.
  const mockPlatform = explicitMock ?? env.NODE_ENV === 'development';
  const fail = (message: string) => new ConfigError(message);
  const auth = parseAuthConfig(env, mockPlatform, fail);
  const publicUrl = auth.mode === 'oidc' ? auth.oidc.publicUrl : parseOptionalPublicUrl(env, fail);
  return {
    mockPlatform,
    port: parsePort(env, 'PORTAL_PORT', 3000),
    ...optional('metricsPort', parseMetricsPort(env)),
    logLevel: parseLogLevel(env, 'PORTAL_LOG_LEVEL', 'info'),
    allowedLocations: parseLocations(env, 'PORTAL_ALLOWED_LOCATIONS'),
    auth,
    ...(publicUrl === undefined ? {} : { publicUrl }),
    ...optional('databaseUrl', parseDatabaseUrl(env, fail)),
    ...optional('azure', parseAzureObservation(env)),
    createLimits: {
      maxAccountsPerUser: parseCount(env, 'PORTAL_MAX_ACCOUNTS_PER_USER', 25),
      maxCreatesPerHour: parseCount(env, 'PORTAL_MAX_CREATES_PER_HOUR', 10),
    },
    tracing: parseTracing(env),
    ...optional('traceUrlTemplate', parseTraceUrlTemplate(env)),
    maxStreamsPerUser: parseCount(env, 'PORTAL_MAX_STREAMS_PER_USER', 5),
    accountScope: parseAccountScope(env),
  };
}

let cached: PortalConfig | undefined;

export function loadConfig(): PortalConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
