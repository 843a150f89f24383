import 'server-only';
import { gotUrl } from '@books/shared-rules';
import type { RoleMapping } from '../model/role-mapping';

/**
 * The sign-in part of the portal's environment (see docs/portal-identity.md).
 * parseAuthConfig throws ConfigError naming the variable; src/server/runtime/config.ts calls it once.
 */

export const MIN_SESSION_SECRET_BYTES = 32;
export const MIN_PROXY_SECRET_CHARACTERS = 32;

export interface OidcSettings {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  /** openid profile email, then PORTAL_OIDC_SCOPES. */
  scopes: string[];
  /** The portal's external origin; the redirect URI and cookie security derive from it. */
  publicUrl: URL;
}

export interface SessionSettings {
  secret: string;
  /** Secure cookies: PORTAL_PUBLIC_URL is https. */
  secure: boolean;
  /** PostgreSQL for sessions shared by replicas; unset keeps them in this process's memory. */
  databaseUrl?: string;
}

export type AuthConfig =
  | { mode: 'development' }
  | { mode: 'none' }
  | { mode: 'proxy'; roles: RoleMapping; proxySecret: string }
  | { mode: 'oidc'; roles: RoleMapping; oidc: OidcSettings; session: SessionSettings };

export type AuthMode = AuthConfig['mode'];

type Env = Record<string, string | undefined>;
type Fail = (message: string) => Error;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function value(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
}

function required(env: Env, name: string, why: string, fail: Fail): string {
  const raw = value(env, name);
  if (raw === undefined) throw fail(`${name} must be set ${why}`);
  return raw;
}

function list(env: Env, name: string): string[] {
  return (value(env, name) ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A URL the message may not quote as written: it may hold a user and password (gotUrl). */
function parseUrl(raw: string, name: string, fail: Fail): URL {
  try {
    return new URL(raw);
  } catch {
    throw fail(`${name} must be an absolute URL${gotUrl(raw)}`);
  }
}

/** https anywhere; plain http only on a loopback address (local development and tests). */
function parseIssuer(env: Env, fail: Fail): URL {
  const name = 'PORTAL_OIDC_ISSUER';
  const issuer = parseUrl(required(env, name, 'with PORTAL_AUTH=oidc', fail), name, fail);
  const loopbackHttp = issuer.protocol === 'http:' && LOOPBACK_HOSTS.has(issuer.hostname);
  if (issuer.protocol !== 'https:' && !loopbackHttp) {
    throw fail(`${name} must be an https URL (plain http only on 127.0.0.1 or localhost)${gotUrl(issuer.href)}`);
  }
  return issuer;
}

function parsePublicUrl(env: Env, fail: Fail): URL {
  const name = 'PORTAL_PUBLIC_URL';
  return publicOrigin(required(env, name, 'with PORTAL_AUTH=oidc (the portal’s external origin)', fail), fail);
}

/** PORTAL_PUBLIC_URL outside oidc mode: optional, and when https it turns on Strict-Transport-Security. */
export function parseOptionalPublicUrl(env: Env, fail: Fail): URL | undefined {
  const raw = value(env, 'PORTAL_PUBLIC_URL');
  return raw === undefined ? undefined : publicOrigin(raw, fail);
}

function publicOrigin(raw: string, fail: Fail): URL {
  const name = 'PORTAL_PUBLIC_URL';
  const url = parseUrl(raw, name, fail);
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/' || url.search || url.hash) {
    throw fail(`${name} must be an http(s) origin such as https://portal.example.com${gotUrl(url.href)}`);
  }
  return new URL(url.origin);
}

/** A secret that is set must be long enough in every mode; oidc mode needs one. */
function parseSessionSecret(env: Env, needed: boolean, fail: Fail): string | undefined {
  const name = 'PORTAL_SESSION_SECRET';
  const secret = value(env, name);
  if (secret === undefined) {
    if (needed) throw fail(`${name} must be set with PORTAL_AUTH=oidc (at least ${MIN_SESSION_SECRET_BYTES} bytes)`);
    return undefined;
  }
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes < MIN_SESSION_SECRET_BYTES) {
    throw fail(
      `${name} must be at least ${MIN_SESSION_SECRET_BYTES} bytes, got ${bytes} (generate one with: openssl rand -base64 48)`,
    );
  }
  return secret;
}

/**
 * The secret the authenticating proxy sends in X-Portal-Proxy-Secret (proxy-proof.ts): without it
 * anyone who reaches the portal could forward any identity, so proxy mode needs one. Like the
 * session secret, one that is set must be long enough in every mode.
 */
function parseProxySecret(env: Env, needed: boolean, fail: Fail): string | undefined {
  const name = 'PORTAL_PROXY_SECRET';
  const secret = value(env, name);
  if (secret === undefined) {
    if (needed)
      throw fail(
        `${name} must be set with PORTAL_AUTH=proxy: the proxy proves itself by sending it in X-Portal-Proxy-Secret ` +
          `(at least ${MIN_PROXY_SECRET_CHARACTERS} characters; generate one with: openssl rand -hex 32)`,
      );
    return undefined;
  }
  const characters = [...secret].length;
  if (characters < MIN_PROXY_SECRET_CHARACTERS) {
    throw fail(
      `${name} must be at least ${MIN_PROXY_SECRET_CHARACTERS} characters, got ${characters} (generate one with: openssl rand -hex 32)`,
    );
  }
  return secret;
}

/** PORTAL_DATABASE_URL: sessions (oidc mode) and the intent ledger live there when it is set. */
export function parseDatabaseUrl(env: Env, fail: Fail): string | undefined {
  const raw = value(env, 'PORTAL_DATABASE_URL');
  if (raw === undefined) return undefined;
  const url = parseUrl(raw, 'PORTAL_DATABASE_URL', fail);
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw fail(`PORTAL_DATABASE_URL must be a postgres:// URL${gotUrl(raw)}`);
  }
  return raw;
}

function parseRoles(env: Env): RoleMapping {
  return {
    claim: value(env, 'PORTAL_ROLES_CLAIM') ?? 'groups',
    adminGroups: list(env, 'PORTAL_ADMIN_GROUPS'),
    requesterGroups: list(env, 'PORTAL_REQUESTER_GROUPS'),
  };
}

function parseScopes(env: Env): string[] {
  const extra = (value(env, 'PORTAL_OIDC_SCOPES') ?? '').split(/\s+/).filter((scope) => scope !== '');
  return [...new Set(['openid', 'profile', 'email', ...extra])];
}

export function parseAuthConfig(env: Env, developmentMode: boolean, fail: Fail): AuthConfig {
  const mode = value(env, 'PORTAL_AUTH')?.toLowerCase();
  const secret = parseSessionSecret(env, mode === 'oidc', fail);
  const proxySecret = parseProxySecret(env, mode === 'proxy', fail);
  switch (mode) {
    case undefined:
      if (developmentMode) return { mode: 'development' };
      throw fail(
        'PORTAL_AUTH must be set outside development mode: "oidc" (sign-in with an OpenID Connect provider), ' +
          '"proxy" (an authenticating proxy forwards the identity) or "none" (no sign-in at all)',
      );
    case 'none':
      return { mode: 'none' };
    case 'proxy':
      return { mode: 'proxy', roles: parseRoles(env), proxySecret: proxySecret ?? '' };
    case 'oidc': {
      const publicUrl = parsePublicUrl(env, fail);
      const databaseUrl = parseDatabaseUrl(env, fail);
      return {
        mode: 'oidc',
        roles: parseRoles(env),
        oidc: {
          issuer: parseIssuer(env, fail),
          clientId: required(env, 'PORTAL_OIDC_CLIENT_ID', 'with PORTAL_AUTH=oidc', fail),
          clientSecret: required(env, 'PORTAL_OIDC_CLIENT_SECRET', 'with PORTAL_AUTH=oidc', fail),
          scopes: parseScopes(env),
          publicUrl,
        },
        session: {
          secret: secret ?? '',
          secure: publicUrl.protocol === 'https:',
          ...(databaseUrl === undefined ? {} : { databaseUrl }),
        },
      };
    }
    default:
      throw fail(`PORTAL_AUTH must be "oidc", "proxy" or "none", got "${env.PORTAL_AUTH?.trim()}"`);
  }
}
