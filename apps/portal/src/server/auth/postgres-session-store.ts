import 'server-only';
import type { JSONValue } from 'postgres';
import type { Principal } from '@/lib/auth/permissions';
import { openPortalPool } from '../backends/database/pool';
import { newSessionId, sessionKey, type SessionStore, type StoredSession } from './session-store';

/** Any constant shared by every replica: serialises creating the table when several start at once. */
const SCHEMA_LOCK = 7_414_206_001;

interface SessionRow {
  principal: Principal;
  id_token: string | null;
  expires_at: Date;
}

/**
 * Sessions in PostgreSQL (PORTAL_DATABASE_URL), so every portal replica sees the same sign-ins
 * and sign-outs. The table is created on first use if missing; expired rows are swept on sign-in.
 */
export function createPostgresSessionStore(databaseUrl: string, table = 'portal_sessions'): SessionStore {
  const sql = openPortalPool(databaseUrl);
  let ready: Promise<void> | undefined;
  const ensureTable = () => {
    ready ??= sql
      .begin(async (tx) => {
        await tx`select pg_advisory_xact_lock(${SCHEMA_LOCK})`;
        await tx`
          create table if not exists ${tx(table)} (
            id_hash    text primary key,
            principal  jsonb not null,
            id_token   text,
            expires_at timestamptz not null
          )`;
      })
      .then(
        () => undefined,
        (error: unknown) => {
          ready = undefined; // try again on the next request
          throw error;
        },
      );
    return ready;
  };

  return {
    async create(session: StoredSession) {
      await ensureTable();
      const id = newSessionId();
      await sql`delete from ${sql(table)} where expires_at <= now()`;
      await sql`
        insert into ${sql(table)} (id_hash, principal, id_token, expires_at)
        values (${sessionKey(id)}, ${sql.json(session.principal as unknown as JSONValue)},
                ${session.idToken ?? null}, ${session.expiresAt})`;
      return id;
    },
    async get(id) {
      await ensureTable();
      const rows = await sql<SessionRow[]>`
        select principal, id_token, expires_at from ${sql(table)}
        where id_hash = ${sessionKey(id)} and expires_at > now()`;
      const row = rows[0];
      if (!row) return undefined;
      return {
        principal: row.principal,
        expiresAt: new Date(row.expires_at),
        ...(row.id_token === null ? {} : { idToken: row.id_token }),
      };
    },
    async delete(id) {
      await ensureTable();
      await sql`delete from ${sql(table)} where id_hash = ${sessionKey(id)}`;
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
