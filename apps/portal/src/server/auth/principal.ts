import 'server-only';
import { parseCookie } from 'cookie';
import type { Principal } from '@/lib/auth/permissions';
import type { AuthConfig } from '../runtime/auth-config';
import { carriesProxyProof, PROXY_PROOF_HEADER } from './proxy-proof';
import { roleFromGroups } from '../model/role-mapping';
import { readSession, sessionCookieName } from './sessions';

/** What a request carries that may identify its user: cookies and headers, however they are read. */
export interface RequestCredentials {
  cookie(name: string): string | undefined;
  header(name: string): string | null;
}

export const DEVELOPER: Principal = { subject: 'developer', identity: 'developer', name: 'developer', role: 'admin' };
export const ANONYMOUS: Principal = {
  subject: 'anonymous',
  identity: 'anonymous',
  name: 'anonymous (no sign-in)',
  role: 'admin',
};

const HEADER_VALUE = /^[\x20-\x7e]{1,256}$/;

function forwardedValue(credentials: RequestCredentials, name: string): string | undefined {
  const value = credentials.header(name)?.trim();
  return value && HEADER_VALUE.test(value) ? value : undefined;
}

/**
 * Proxy mode: the authenticating proxy in front (oauth2-proxy and the like) forwards who signed
 * in. Trusted only with PORTAL_AUTH=proxy, and only from a request that carries the proxy's
 * proof (PORTAL_PROXY_SECRET in X-Portal-Proxy-Secret): without it the request has no user,
 * whatever it forwards. Every other mode never reads these headers. The forwarded user is the
 * subject (the e-mail when only that is forwarded); the proxy vouches for the e-mail it forwards.
 */
function forwardedPrincipal(config: Extract<AuthConfig, { mode: 'proxy' }>, credentials: RequestCredentials) {
  if (!carriesProxyProof(credentials.header(PROXY_PROOF_HEADER), config.proxySecret)) return undefined;
  const email = forwardedValue(credentials, 'x-forwarded-email');
  const user = forwardedValue(credentials, 'x-forwarded-user');
  const subject = user ?? email;
  if (subject === undefined) return undefined;
  const groups = (credentials.header('x-forwarded-groups') ?? '')
    .split(',')
    .map((group) => group.trim())
    .filter((group) => group !== '');
  const principal: Principal = { subject, identity: email ?? subject, role: roleFromGroups(groups, config.roles) };
  if (user !== undefined) principal.name = user;
  if (email !== undefined) principal.verifiedEmail = email;
  return principal;
}

/**
 * A session's user, if it was stored under the identity rule in force: sessions from before the
 * portal recorded subjects have none, and sign in again rather than be guessed at.
 */
function currentRulePrincipal(principal: Principal | undefined): Principal | undefined {
  return principal !== undefined && typeof principal.subject === 'string' && principal.subject !== ''
    ? principal
    : undefined;
}

/** The signed-in user of a request, or undefined when there is none (the guard then refuses). */
export async function resolvePrincipal(
  config: AuthConfig,
  credentials: RequestCredentials,
): Promise<Principal | undefined> {
  switch (config.mode) {
    case 'development':
      return DEVELOPER;
    case 'none':
      return ANONYMOUS;
    case 'proxy':
      return forwardedPrincipal(config, credentials);
    case 'oidc':
      return currentRulePrincipal(
        (await readSession(config.session, credentials.cookie(sessionCookieName(config.session))))?.principal,
      );
  }
}

/** Reads a plain Request's Cookie header (route handlers; tests call them with plain Requests). */
export function requestCredentials(request: Request): RequestCredentials {
  let cookies: Record<string, string | undefined> | undefined;
  return {
    header: (name) => request.headers.get(name),
    cookie(name) {
      cookies ??= parseCookie(request.headers.get('cookie') ?? '');
      return cookies[name];
    },
  };
}
