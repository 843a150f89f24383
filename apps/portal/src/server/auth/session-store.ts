import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from '@/lib/auth/permissions';

/** A signed-in session as the server keeps it; the browser only holds its (sealed) id. */
export interface StoredSession {
  principal: Principal;
  /** Sent back to the provider as id_token_hint when signing out there. */
  idToken?: string;
  expiresAt: Date;
}

/**
 * Where sessions live. The cookie's id is only a key: a session the store no longer confirms
 * (signed out, expired) is gone even for someone holding a copy of the cookie.
 */
export interface SessionStore {
  /** Stores the session and answers its new, unguessable id. */
  create(session: StoredSession): Promise<string>;
  /** The session, unless it is unknown, ended or expired. */
  get(id: string): Promise<StoredSession | undefined>;
  delete(id: string): Promise<void>;
  close(): Promise<void>;
}

export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/** Stores key sessions by a hash of the id, so a copy of the store holds no usable cookie. */
export function sessionKey(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}

/** Sessions in this process's memory: right for a single replica. */
export function createMemorySessionStore(now: () => number = Date.now): SessionStore {
  const sessions = new Map<string, StoredSession>();
  const sweep = () => {
    for (const [key, session] of sessions) if (session.expiresAt.getTime() <= now()) sessions.delete(key);
  };
  return {
    async create(session) {
      sweep();
      const id = newSessionId();
      sessions.set(sessionKey(id), session);
      return id;
    },
    async get(id) {
      const session = sessions.get(sessionKey(id));
      if (!session) return undefined;
      if (session.expiresAt.getTime() <= now()) {
        sessions.delete(sessionKey(id));
        return undefined;
      }
      return session;
    },
    async delete(id) {
      sessions.delete(sessionKey(id));
    },
    async close() {
      sessions.clear();
    },
  };
}
