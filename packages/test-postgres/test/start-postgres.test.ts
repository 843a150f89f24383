import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import postgres from 'postgres';
import { startPostgres, ThrowawayCluster } from '../src/index.js';

async function selectOne(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, connect_timeout: 5 });
  try {
    const [row] = await sql<{ one: number }[]>`select 1 as one`;
    return row!.one;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

test('createDatabase returns an empty database of its own that stop() drops', async () => {
  const server = await startPostgres();
  try {
    const first = await server.createDatabase('suite');
    const second = await server.createDatabase('suite');
    assert.notEqual(first, second);
    const sql = postgres(first, { max: 1 });
    await sql`create table t (x int)`;
    await sql.end();
    const other = postgres(second, { max: 1 });
    const [row] = await other<{ n: number }[]>`select count(*)::int as n from pg_tables where tablename = 't'`;
    await other.end();
    assert.equal(row!.n, 0);
  } finally {
    await server.stop();
  }
});

test('a stopped throwaway server refuses connections and comes back with its data after startServer()', async () => {
  const server = await startPostgres({ ownServer: true });
  try {
    assert.equal(server.canRestart, true);
    const url = await server.createDatabase();
    const sql = postgres(url, { max: 1 });
    await sql`create table kept (x int)`;
    await sql`insert into kept values (42)`;
    await sql.end();

    await server.stopServer();
    await assert.rejects(selectOne(url));
    await server.startServer();

    const again = postgres(url, { max: 1 });
    const [row] = await again<{ x: number }[]>`select x from kept`;
    await again.end();
    assert.equal(row!.x, 42);
  } finally {
    await server.stop();
  }
});

test('destroying a throwaway cluster removes its folder and stops the server', async () => {
  const cluster = await ThrowawayCluster.create();
  assert.equal(await selectOne(cluster.url), 1);
  await cluster.destroy();
  assert.equal(existsSync(cluster.folder), false);
  await assert.rejects(selectOne(cluster.url));
});
