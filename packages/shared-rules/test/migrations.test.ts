import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startPostgres, type TestPostgres } from '@books/test-postgres';
import postgres from 'postgres';
import { migrate, type Migration, type MigrationLedger } from '../src/index.js';

let server: TestPostgres;
before(async () => {
  server = await startPostgres();
});
after(() => server.stop());

const LEDGER: MigrationLedger = { table: 'test_schema_migrations', lockKey: 1_234_567 };

const MIGRATIONS: Migration[] = [
  { version: 2, name: 'second', sql: 'alter table things add column size integer; insert into things values (2, 20)' },
  { version: 1, name: 'first', sql: 'create table things (id integer primary key); insert into things values (1)' },
];

async function database() {
  const sql = postgres(await server.createDatabase('migrations'), { max: 4, onnotice: () => undefined });
  return sql;
}

test('replicas migrating together apply each migration once, in version order', async () => {
  const sql = await database();
  try {
    const runs = await Promise.all([1, 2, 3].map(() => migrate(sql, MIGRATIONS, LEDGER)));
    assert.deepEqual(runs.flat().sort(), [1, 2]);
    assert.deepEqual(
      (await sql`select version, name from test_schema_migrations order by version`).map((row) => ({ ...row })),
      [
        { version: 1, name: 'first' },
        { version: 2, name: 'second' },
      ],
    );
    assert.deepEqual(await migrate(sql, MIGRATIONS, LEDGER), []);
  } finally {
    await sql.end();
  }
});

test('a failing migration is rolled back, named in the error, and the ones before it stay applied', async () => {
  const sql = await database();
  try {
    const broken = [...MIGRATIONS, { version: 3, name: 'broken', sql: 'insert into things values (3); select 1/0' }];
    await assert.rejects(migrate(sql, broken, LEDGER), /^Error: Migration 3 \(broken\) failed: division by zero$/);
    assert.deepEqual(
      (await sql`select id from things order by id`).map((row) => row.id as number),
      [1, 2],
    );
    assert.deepEqual(await migrate(sql, MIGRATIONS, LEDGER), []);
  } finally {
    await sql.end();
  }
});
