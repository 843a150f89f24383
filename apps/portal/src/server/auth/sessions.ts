import 'server-only';
import type { Principal } from '@/lib/auth/permissions';
import { processWide } from '../runtime/process-wide';
import type { SessionSettings } from '../runtime/auth-config';
import { createPostgresSessionStore } from './postgres-session-store';
import { seal, unseal } from './sealed-token';
import { createMemorySessionStore, type SessionStore, type StoredSession } from './session-store';

/** The contract's session lifetime: a sign-in lasts this long, however active the user is. */
export const SESSION_LIFETIME_MS = 8 * 60 * 60 * 1000;

export interface CookieOptions {
  httpOnly: true;
  sameSite: 'lax';
  secure: boolean;
  path: '/';
  expires: Date;
}

/** `__Host-` (Secure, host-only, Path=/) whenever the portal is served over https. */
export function sessionCookieName(settings: SessionSettings): string {
  return settings.secure ? '__Host-portal-session' : 'portal-session';
}

export function cookieOptions(settings: SessionSettings, expires: Date): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: settings.secure, path: '/', expires };
}

// The proxy and the route handlers are bundled separately but run in one process: one registry
// makes them share a store (one Map, one connection pool) instead of one each.
export function getSessionStore(settings: SessionSettings): SessionStore {
  const registry = processWide('session-stores', () => new Map<string, SessionStore>());
  const key = settings.databaseUrl ?? 'memory';
  let store = registry.get(key);
  if (!store) {
    store = settings.databaseUrl ? createPostgresSessionStore(settings.databaseUrl) : createMemorySessionStore();
    registry.set(key, store);
  }
  return store;
}

/** Stores a new session and answers the sealed cookie value that refers to it. */
export async function startSession(
  settings: SessionSettings,
  principal: Principal,
  idToken: string | undefined,
): Promise<{ value: string; expiresAt: Date }> {
  const expiresAt = new Date(Date.now() + SESSION_LIFETIME_MS);
  const id = await getSessionStore(settings).create({
    principal,
    expiresAt,
    ...(idToken === undefined ? {} : { idToken }),
  });
  return { value: await seal({ sid: id }, { secret: settings.secret, purpose: 'session', expiresAt }), expiresAt };
}

async function sessionId(settings: SessionSettings, cookie: string | undefined): Promise<string | undefined> {
  if (!cookie) return undefined;
  const payload = await unseal(cookie, { secret: settings.secret, purpose: 'session' });
  return typeof payload?.sid === 'string' ? payload.sid : undefined;
}

/** The session a cookie refers to, if the cookie is intact and unexpired and the store still holds it. */
export async function readSession(
  settings: SessionSettings,
  cookie: string | undefined,
): Promise<StoredSession | undefined> {
  const id = await sessionId(settings, cookie);
  return id === undefined ? undefined : getSessionStore(settings).get(id);
}

/** Ends the session on the server; answers what it held (for the provider's sign-out). */
export async function endSession(
  settings: SessionSettings,
  cookie: string | undefined,
): Promise<StoredSession | undefined> {
  const id = await sessionId(settings, cookie);
  if (id === undefined) return undefined;
  const store = getSessionStore(settings);
  const session = await store.get(id);
  await store.delete(id);
  return session;
}
