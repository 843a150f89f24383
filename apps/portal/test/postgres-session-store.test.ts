/**
 * Sessions in a real PostgreSQL (TEST_DATABASE_URL, else a throwaway cluster): two stores on one
 * database stand for two portal replicas sharing sign-ins and sign-outs.
 */
import { startPostgres, type TestPostgres } from '@books/test-postgres';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresSessionStore } from '../src/server/auth/postgres-session-store';
import { sessionKey, type SessionStore } from '../src/server/auth/session-store';

const principal = {
  subject: 'https://idp.example#rita',
  identity: 'rita@example.com',
  name: 'Rita',
  role: 'requester' as const,
};
const inAnHour = () => new Date(Date.now() + 3_600_000);

let server: TestPostgres;
let databaseUrl: string;
let replicaA: SessionStore;
let replicaB: SessionStore;

beforeAll(async () => {
  server = await startPostgres();
  databaseUrl = await server.createDatabase('portal_sessions');
  replicaA = createPostgresSessionStore(databaseUrl);
  replicaB = createPostgresSessionStore(databaseUrl);
}, 120_000);

afterAll(async () => {
  await replicaA?.close();
  await replicaB?.close();
  await server?.stop();
}, 60_000);

describe('PostgreSQL session store', () => {
  it('creates its table on first use and shares a sign-in with another replica', async () => {
    const id = await replicaA.create({ principal, idToken: 'id-token', expiresAt: inAnHour() });
    const seen = await replicaB.get(id);
    expect(seen?.principal).toEqual(principal);
    expect(seen?.idToken).toBe('id-token');
  });

  it('ends a session for every replica when one signs it out', async () => {
    const id = await replicaA.create({ principal, expiresAt: inAnHour() });
    await replicaB.delete(id);
    expect(await replicaA.get(id)).toBeUndefined();
    expect(await replicaB.get(id)).toBeUndefined();
  });

  it('does not confirm an expired session, and keeps only a hash of the id', async () => {
    const id = await replicaA.create({ principal, expiresAt: new Date(Date.now() + 1000) });
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
    try {
      const rows = await sql<{ id_hash: string }[]>`select id_hash from portal_sessions`;
      expect(rows.map((row) => row.id_hash)).toContain(sessionKey(id));
      expect(rows.map((row) => row.id_hash)).not.toContain(id);
      await sql`update portal_sessions set expires_at = now() - interval '1 second' where id_hash = ${sessionKey(id)}`;
    } finally {
      await sql.end({ timeout: 5 });
    }
    expect(await replicaB.get(id)).toBeUndefined();
  });

  it('knows no made-up id', async () => {
    expect(await replicaA.get('made-up')).toBeUndefined();
  });
});
