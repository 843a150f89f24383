import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, connect as connectTcp, type Socket } from 'node:net';
import { test, type TestContext } from 'node:test';
import postgres from 'postgres';
import { StoreUnavailableError } from '../../../src/store/book-store.js';
import { connect } from '../../../src/store/postgres/connection.js';
import { isUnavailable, unlessUnavailable } from '../../../src/store/postgres/database-errors.js';
import { DatabaseWaitTimeout, withinWait } from '../../../src/store/postgres/database-wait.js';
import { PostgresBookStore } from '../../../src/store/postgres/postgres-book-store.js';
import { SEED_BOOKS } from '../../../src/store/seed.js';
import { freshDatabase, freshPostgresStore } from '../../postgres.js';

const never = () => new Promise<never>(() => undefined);

test('withinWait answers what the call answers when it answers in time', async () => {
  assert.equal(await withinWait(1000, async () => 'answer'), 'answer');
  await assert.rejects(
    withinWait(1000, async () => {
      throw new Error('refused');
    }),
    /refused/,
  );
});

test('withinWait rejects with DatabaseWaitTimeout once the wait is over, and the deadline then reads as expired', async () => {
  let seen: { expired: boolean; text: () => string } | undefined;
  await assert.rejects(
    withinWait(20, (deadline) => {
      seen = {
        get expired() {
          return deadline.expired;
        },
        text: () => String(deadline),
      };
      assert.equal(String(deadline), 'true', 'in time');
      return never();
    }),
    (error: unknown) => error instanceof DatabaseWaitTimeout && error.waitMs === 20,
  );
  assert.equal(seen?.expired, true);
  assert.equal(seen?.text(), 'false');
});

test('without a wait the call is not bounded', async () => {
  let settle: ((value: string) => void) | undefined;
  const call = withinWait(undefined, () => new Promise<string>((resolve) => (settle = resolve)));
  await new Promise((resolve) => setTimeout(resolve, 30));
  settle!('late answer');
  assert.equal(await call, 'late answer');
});

test('unlessUnavailable turns running out of time into StoreUnavailableError, the timeout as its cause', async () => {
  await assert.rejects(unlessUnavailable(10, never), (error: unknown) => {
    assert.ok(error instanceof StoreUnavailableError);
    assert.ok(error.cause instanceof DatabaseWaitTimeout);
    return isUnavailable(error.cause);
  });
});

/**
 * A TCP relay to PostgreSQL that holds new connections until release(), as a database that is
 * restarting does, and keeps what the client sent, to show what reached the server.
 */
async function holdingRelay(t: TestContext, target: URL) {
  const sent: Buffer[] = [];
  const held: Socket[] = [];
  let holding = true;
  const forward = (client: Socket) => {
    const server = connectTcp(Number(target.port), target.hostname);
    client.on('data', (chunk: Buffer) => sent.push(chunk));
    client.pipe(server).pipe(client);
    const close = () => (client.destroy(), server.destroy());
    client.on('error', close).on('close', close);
    server.on('error', close).on('close', close);
  };
  const relay = createServer((client) => {
    client.pause();
    if (holding) held.push(client);
    else forward(client);
  });
  relay.listen(0, '127.0.0.1');
  await once(relay, 'listening');
  t.after(() => relay.close());
  const url = new URL(target);
  url.port = String((relay.address() as { port: number }).port);
  return {
    url: url.toString(),
    held: () => held.length,
    release() {
      holding = false;
      for (const client of held.splice(0)) forward(client);
    },
    sentText: () => Buffer.concat(sent).toString('latin1'),
  };
}

test('a write the driver sends only after its call ran out of time changes nothing', async (t) => {
  const database = await freshDatabase(t);
  await freshPostgresStore(t, database); // migrated and seeded, directly
  const relay = await holdingRelay(t, new URL(database.url));
  const settings = { ...database, url: relay.url, poolSize: 1, statementTimeoutMs: 400, waitTimeoutMs: 500 };
  const pool = connect(settings);
  t.after(() => pool.end({ timeout: 1 }));
  const store = new PostgresBookStore(pool, { waitTimeoutMs: settings.waitTimeoutMs });
  store.markReady();

  // The pool's only connection is being opened, and held: these wait for it until their time is over.
  const seeded = SEED_BOOKS[0]!;
  const unavailable = (error: unknown) =>
    error instanceof StoreUnavailableError && error.cause instanceof DatabaseWaitTimeout;
  await Promise.all([
    assert.rejects(store.create({ title: 'Sent too late', author: 'Nobody', year: 2001 }), unavailable),
    assert.rejects(store.update(seeded.id, { title: 'Renamed too late' }), unavailable),
    assert.rejects(store.delete(SEED_BOOKS[1]!.id), unavailable),
  ]);
  assert.equal(relay.held(), 1, 'the connection was still being opened');

  relay.release();
  // Queued behind the late statements on the same connection, so answered after them.
  assert.equal(await store.count(), SEED_BOOKS.length);
  const text = relay.sentText();
  assert.ok(text.includes('Sent too late') && text.includes('Renamed too late'), 'the late statements were sent');

  const direct = postgres(database.url, { max: 1, onnotice: () => undefined });
  t.after(() => direct.end());
  const rows = await direct<{ title: string }[]>`select title from books order by seq`;
  assert.deepEqual(
    rows.map((row) => row.title),
    SEED_BOOKS.map((book) => book.title),
    'no book was created, renamed or deleted',
  );
  const created = await store.create({ title: 'Sent in time', author: 'Somebody', year: 2002 });
  assert.equal((await store.get(created.id))?.title, 'Sent in time', 'the pool works on');
});
