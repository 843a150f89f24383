/**
 * Environment configuration, parsed and validated once at start.
 *
 * To add a variable: add one line to `loadConfig` using a parser below (or a new
 * small parser). The `Config` type is derived from `loadConfig`, so there is no
 * second list to keep in sync. A bad value throws a `ConfigError` naming the
 * variable; server.ts prints it and exits 1.
 *
 * Of two limits tied together (one must exceed the other), an unset one follows the one that is
 * set, so changing one limit alone never stops the start; only a contradiction between two values
 * the user set does, and its message names both.
 */

import { gotUrl, parseSwitch, SWITCH_WORDS_HINT, TracingSettingError, tracingSwitch } from '@books/shared-rules';
import type { TokenSigningSettings } from './auth/signing-keys.js';
import { parseTrustedProxies } from './trust-proxy.js';

export type Env = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid environment variable ${variable}: ${reason}`);
    this.name = 'ConfigError';
  }
}

/** A parser turns the raw text of a set variable into a value, or throws a reason. */
export type Parser<T> = (raw: string) => T;

class InvalidValue extends Error {}

/** The contract's switch words (shared with the portal): true/1/yes/on in any case enable; anything else disables. */
export const truthy: Parser<boolean> = (raw) => parseSwitch(raw) === true;

export const nonEmptyString: Parser<string> = (raw) => {
  const value = raw.trim();
  if (value === '') throw new InvalidValue('must not be empty');
  return value;
};

export function integerInRange(min: number, max: number): Parser<number> {
  return (raw) => {
    const text = raw.trim();
    if (!/^\d+$/.test(text)) throw new InvalidValue(`must be an integer from ${min} to ${max}, got "${raw}"`);
    const value = Number(text);
    if (value < min || value > max) throw new InvalidValue(`must be an integer from ${min} to ${max}, got "${raw}"`);
    return value;
  };
}

export function oneOf<const T extends string>(choices: readonly T[]): Parser<T> {
  return (raw) => {
    const value = raw.trim().toLowerCase();
    const found = choices.find((choice) => choice === value);
    if (found === undefined) throw new InvalidValue(`must be one of ${choices.join(', ')}, got "${raw}"`);
    return found;
  };
}

/** A security switch: a typo must not silently leave it off, so unknown words are refused. */
export const strictSwitch: Parser<boolean> = (raw) => {
  const value = parseSwitch(raw);
  if (value !== undefined) return value;
  if (raw.trim() === '') return false;
  throw new InvalidValue(`must be ${SWITCH_WORDS_HINT}, got "${raw}"`);
};

/** HS256 needs a key of at least 256 bits (RFC 7518 §3.2). Empty means unset: token login is then off. */
const HS256_MIN_SECRET_BYTES = 32;
const hs256Secret: Parser<string | undefined> = (raw) => {
  if (raw === '') return undefined;
  const bytes = Buffer.byteLength(raw, 'utf8');
  if (bytes < HS256_MIN_SECRET_BYTES) {
    throw new InvalidValue(
      `must be at least ${HS256_MIN_SECRET_BYTES} bytes for HS256, got ${bytes}; generate one with: openssl rand -base64 48`,
    );
  }
  return raw;
};

function readTokenSigning(env: Env): TokenSigningSettings {
  const algorithm = read(env, 'JWT_ALGORITHM', oneOf(['hs256', 'rs256']), 'hs256');
  if (algorithm === 'hs256') return { algorithm: 'HS256', secret: read(env, 'JWT_SECRET_KEY', hs256Secret, undefined) };
  const keyFile = (variable: string): string => {
    const path = read<string | undefined>(env, variable, nonEmptyString, undefined);
    if (path === undefined) throw new ConfigError(variable, 'is required when JWT_ALGORITHM=RS256 (a PEM file)');
    return path;
  };
  return {
    algorithm: 'RS256',
    privateKeyFile: keyFile('JWT_PRIVATE_KEY_FILE'),
    publicKeyFile: keyFile('JWT_PUBLIC_KEY_FILE'),
  };
}

/**
 * A URL variable; empty means unset. Text that is no URL is refused with `notAUrl`, and `check`
 * throws an InvalidValue for a URL of the wrong kind. The value is kept as written. Messages
 * quote a URL only through gotUrl (no user, password or query): it may hold credentials.
 */
function optionalUrl(notAUrl: string, check: (url: URL, raw: string) => void): Parser<string | undefined> {
  return (raw) => {
    const value = raw.trim();
    if (value === '') return undefined;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new InvalidValue(notAUrl);
    }
    check(url, raw);
    return value;
  };
}

/** A libpq URL (`postgres://user:pass@host:port/db?sslmode=require`). Empty means unset: the memory store. */
const databaseUrl = optionalUrl('must be a URL such as postgres://user:password@host:5432/books', (url) => {
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new InvalidValue(`must start with postgres:// or postgresql://${gotUrl(url.href)}`);
  }
});

/** DATABASE_WAIT_TIMEOUT_MS by default: this much longer than DATABASE_STATEMENT_TIMEOUT_MS. */
const DATABASE_WAIT_MARGIN_MS = 1000;

const DEFAULT_STATEMENT_TIMEOUT_MS = 5000;

function readDatabase(env: Env) {
  const url = read(env, 'DATABASE_URL', databaseUrl, undefined);
  const poolSize = read(env, 'DATABASE_POOL_SIZE', integerInRange(1, 1000), 10);
  const milliseconds = (variable: string, max: number, fallback: number) =>
    read(env, variable, integerInRange(1, max), fallback);
  // The wait is longer than a statement may run, so that the server's own cancel (a clean rollback)
  // ends a slow statement, and the wait only ends the calls the database cannot answer: down,
  // restarting, a connection gone dead. The second more covers waiting for a connection and the
  // round trip. Whichever of the two is unset follows the other.
  const setWaitMs = read<number | undefined>(env, 'DATABASE_WAIT_TIMEOUT_MS', integerInRange(1, 7_200_000), undefined);
  const statementTimeoutMs = milliseconds(
    'DATABASE_STATEMENT_TIMEOUT_MS',
    3_600_000,
    setWaitMs === undefined
      ? DEFAULT_STATEMENT_TIMEOUT_MS
      : Math.min(DEFAULT_STATEMENT_TIMEOUT_MS, Math.max(Math.ceil(setWaitMs / 2), setWaitMs - DATABASE_WAIT_MARGIN_MS)),
  );
  const waitTimeoutMs = setWaitMs ?? statementTimeoutMs + DATABASE_WAIT_MARGIN_MS;
  if (waitTimeoutMs <= statementTimeoutMs) {
    throw new ConfigError(
      'DATABASE_WAIT_TIMEOUT_MS',
      `must be longer than DATABASE_STATEMENT_TIMEOUT_MS (${statementTimeoutMs})`,
    );
  }
  return url === undefined ? undefined : { url, poolSize, statementTimeoutMs, waitTimeoutMs };
}

const trustedProxies: Parser<ReturnType<typeof parseTrustedProxies>> = (raw) => {
  try {
    return parseTrustedProxies(raw);
  } catch (error) {
    throw new InvalidValue((error as Error).message);
  }
};

/** Addresses a guessing campaign needs to lock a user out everywhere: the defaults' ratio of the two per-user limits. */
const ALL_CLIENTS_PER_PAIR = 20;
const DEFAULT_MAX_FAILURES_PER_USERNAME = 5;

function readLoginThrottle(env: Env) {
  const limit = (variable: string, fallback: number) => read(env, variable, integerInRange(1, 1_000_000), fallback);
  // Whichever of the two per-user limits is unset follows the other at the defaults' ratio.
  const setAllClients = read<number | undefined>(
    env,
    'LOGIN_MAX_FAILURES_PER_USERNAME_ALL_CLIENTS',
    integerInRange(1, 1_000_000),
    undefined,
  );
  const maxFailuresPerUsername = limit(
    'LOGIN_MAX_FAILURES_PER_USERNAME',
    setAllClients === undefined
      ? DEFAULT_MAX_FAILURES_PER_USERNAME
      : Math.min(DEFAULT_MAX_FAILURES_PER_USERNAME, Math.max(1, Math.floor(setAllClients / ALL_CLIENTS_PER_PAIR))),
  );
  const settings = {
    maxFailuresPerUsername,
    maxFailuresPerClient: limit('LOGIN_MAX_FAILURES_PER_CLIENT', 20),
    maxFailuresPerUsernameAllClients: setAllClients ?? maxFailuresPerUsername * ALL_CLIENTS_PER_PAIR,
    windowSeconds: read(env, 'LOGIN_FAILURE_WINDOW_SECONDS', integerInRange(1, 86_400), 300),
  };
  // At or below the per-address limit, one address could use up every client's attempts for a user.
  if (settings.maxFailuresPerUsernameAllClients <= settings.maxFailuresPerUsername) {
    throw new ConfigError(
      'LOGIN_MAX_FAILURES_PER_USERNAME_ALL_CLIENTS',
      `must be greater than LOGIN_MAX_FAILURES_PER_USERNAME (${settings.maxFailuresPerUsername}), or one client address could lock a user out everywhere`,
    );
  }
  return settings;
}

/** The hosts an http:// issuer may name: local development and tests only. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** AUTH_OIDC_ISSUER: an https URL, or http on a loopback address. Empty means unset. */
const oidcIssuer = optionalUrl(
  "must be the provider's issuer URL, such as https://login.microsoftonline.com/<tenant>/v2.0",
  (url, raw) => {
    if (url.search !== '' || url.hash !== '') throw new InvalidValue('must not have a query or fragment');
    if (url.protocol === 'https:') return;
    if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return;
    throw new InvalidValue(`must be https (http only on a loopback address, for development)${gotUrl(raw)}`);
  },
);

/** AUTH_OIDC_ROLES_CLAIM: a claim name, or a dot-separated path to a nested one (realm_access.roles). */
const claimPath: Parser<string | undefined> = (raw) => {
  const value = raw.trim();
  if (value === '') return undefined;
  if (value.split('.').some((name) => name === ''))
    throw new InvalidValue(`must be a claim name or a dot-separated path, got "${raw}"`);
  return value;
};

/** An OAuth scope token (RFC 6749 3.3: visible ASCII but `"` and `\`). */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** AUTH_OIDC_DOCS_SCOPES: space-separated scopes. */
const scopeList: Parser<string[]> = (raw) => {
  const scopes = raw.split(' ').filter((scope) => scope !== '');
  const bad = scopes.find((scope) => !SCOPE_TOKEN.test(scope));
  if (bad !== undefined) throw new InvalidValue(`must be scopes separated by spaces, got "${bad}"`);
  return scopes;
};

/** Tokens from an identity provider (docs/authentication.md); undefined when AUTH_OIDC_ISSUER is unset. */
function readIdentityProvider(env: Env, ownIssuer: string) {
  const issuer = read(env, 'AUTH_OIDC_ISSUER', oidcIssuer, undefined);
  const audience = read<string | undefined>(env, 'AUTH_OIDC_AUDIENCE', nonEmptyString, undefined);
  const rolesClaim = read(env, 'AUTH_OIDC_ROLES_CLAIM', claimPath, undefined);
  const docsClientId = read<string | undefined>(env, 'AUTH_OIDC_DOCS_CLIENT_ID', nonEmptyString, undefined);
  const docsScopes = read(env, 'AUTH_OIDC_DOCS_SCOPES', scopeList, []);
  if (issuer === undefined) {
    const stray = (
      ['AUTH_OIDC_AUDIENCE', 'AUTH_OIDC_ROLES_CLAIM', 'AUTH_OIDC_DOCS_CLIENT_ID', 'AUTH_OIDC_DOCS_SCOPES'] as const
    ).find((variable) => (env[variable] ?? '').trim() !== '');
    if (stray !== undefined) throw new ConfigError('AUTH_OIDC_ISSUER', `is required with ${stray}`);
    return undefined;
  }
  if (audience === undefined)
    throw new ConfigError('AUTH_OIDC_AUDIENCE', 'is required with AUTH_OIDC_ISSUER (the aud this API accepts)');
  if (issuer === ownIssuer)
    throw new ConfigError(
      'AUTH_OIDC_ISSUER',
      'must differ from JWT_ISSUER: the iss of a token decides who verifies it',
    );
  if (docsClientId === undefined && docsScopes.length > 0)
    throw new ConfigError('AUTH_OIDC_DOCS_CLIENT_ID', 'is required with AUTH_OIDC_DOCS_SCOPES');
  return {
    issuer,
    audience,
    rolesClaim,
    // /docs signs in with the provider (authorization code + PKCE) only with a client id of its own.
    docs: docsClientId === undefined ? undefined : { clientId: docsClientId, scopes: docsScopes },
  };
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Reads one variable: unset (or empty, for non-switch values) gives the default. */
export function read<T>(env: Env, variable: string, parse: Parser<T>, fallback: T): T {
  const raw = env[variable];
  if (raw === undefined) return fallback;
  try {
    return parse(raw);
  } catch (error) {
    if (error instanceof InvalidValue) throw new ConfigError(variable, error.message);
    throw error;
  }
}

/** Connection limits and timeouts (docs/errors-and-limits.md). */
function readConnectionSettings(env: Env) {
  const wholeSeconds = (variable: string, fallback: number) => read(env, variable, integerInRange(1, 3600), fallback);
  const seconds = (variable: string, fallback: number) => wholeSeconds(variable, fallback) * 1000;
  // The headers are part of the request: whichever of the two timeouts is unset follows the other.
  const setRequestSeconds = read<number | undefined>(
    env,
    'REQUEST_TIMEOUT_SECONDS',
    integerInRange(1, 3600),
    undefined,
  );
  const headersSeconds = wholeSeconds('HEADERS_TIMEOUT_SECONDS', Math.min(10, setRequestSeconds ?? 10));
  const settings = {
    headersTimeoutMs: headersSeconds * 1000,
    requestTimeoutMs: (setRequestSeconds ?? Math.max(30, headersSeconds)) * 1000,
    // Above the 60 s idle timeout of AWS load balancers: the balancer, not us, closes an idle
    // connection, so it never sends a request on one we are closing.
    keepAliveTimeoutMs: seconds('KEEP_ALIVE_TIMEOUT_SECONDS', 65),
    maxConnections: read(env, 'MAX_CONNECTIONS', integerInRange(1, 1_000_000), 10_000),
    maxRequestsPerConnection: read(env, 'MAX_REQUESTS_PER_CONNECTION', integerInRange(1, 1_000_000_000), 10_000),
    shutdownTimeoutMs: seconds('SHUTDOWN_TIMEOUT_SECONDS', 10),
  };
  if (settings.headersTimeoutMs > settings.requestTimeoutMs) {
    throw new ConfigError('HEADERS_TIMEOUT_SECONDS', 'must not be longer than REQUEST_TIMEOUT_SECONDS');
  }
  return settings;
}

export type ConnectionSettings = ReturnType<typeof readConnectionSettings>;

/**
 * Traces (docs/operations.md): on when an OTLP endpoint is set and OTEL_SDK_DISABLED is not true.
 * The SDK reads the other OTEL_* variables itself; this only decides whether it is loaded.
 */
function readTracing(env: Env) {
  try {
    return tracingSwitch(env);
  } catch (error) {
    if (error instanceof TracingSettingError) throw new ConfigError(error.variable, error.reason);
    throw error;
  }
}

export function loadConfig(env: Env = process.env) {
  const tokenClaims = {
    issuer: read(env, 'JWT_ISSUER', nonEmptyString, 'books-service'),
    audience: read(env, 'JWT_AUDIENCE', nonEmptyString, 'books-api'),
  };
  return {
    host: read(env, 'HOST', nonEmptyString, '127.0.0.1'),
    port: read(env, 'PORT', integerInRange(0, 65535), 8000),
    logLevel: read<LogLevel>(env, 'LOG_LEVEL', oneOf(LOG_LEVELS), 'info'),
    chaosHeadersEnabled: read(env, 'ENABLE_CHAOS_HEADERS', truthy, false),
    // The books routes' answers of one event-loop turn written together (serialization/book-json.ts).
    responseWriteBatching: read(env, 'RESPONSE_WRITE_BATCHING', strictSwitch, true),
    trafficGeneratorEnabled: read(env, 'ENABLE_TRAFFIC_GENERATOR', truthy, false),
    tracing: readTracing(env),
    // The PostgreSQL store (docs/postgresql.md); unset: the in-memory store.
    database: readDatabase(env),
    connections: readConnectionSettings(env),
    // Proxies whose X-Forwarded-For names the client (docs/security.md); none by default.
    trustProxy: read(env, 'TRUST_PROXY', trustedProxies, { kind: 'none' }),
    // Token login (docs/authentication.md); files named here are read by plugins/app/authentication.ts at start.
    auth: {
      usersFile: read<string | undefined>(env, 'USERS_FILE', nonEmptyString, undefined),
      tokenSigning: readTokenSigning(env),
      // The API's own tokens carry these as `iss` and `aud`; verification requires both to match.
      tokenClaims,
      // Tokens from an identity provider (docs/authentication.md); undefined: only the API's own.
      identityProvider: readIdentityProvider(env, tokenClaims.issuer),
      authRequired: read(env, 'AUTH_REQUIRED', strictSwitch, false),
      loginThrottle: readLoginThrottle(env),
      passwordVerifications: {
        maxConcurrent: read(env, 'LOGIN_MAX_CONCURRENT_VERIFICATIONS', integerInRange(1, 1_000), 4),
        maxQueued: read(env, 'LOGIN_MAX_QUEUED_VERIFICATIONS', integerInRange(0, 100_000), 64),
      },
    },
  };
}

export type Config = ReturnType<typeof loadConfig>;

/** The configuration used by tests and by `buildApp` when none is given. */
export function defaultConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), ...overrides };
}
