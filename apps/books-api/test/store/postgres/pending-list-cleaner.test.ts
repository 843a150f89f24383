import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { PendingListCleaner } from '../../../src/store/postgres/pending-list-cleaner.js';

// The scheduling of the moves alone, with real timers; the moves themselves against PostgreSQL are
// in search-index-pending-list.test.ts.

test('the writes of one while share one move, which starts after the delay', async () => {
  const started: number[] = [];
  const cleaner = new PendingListCleaner(async () => {
    started.push(Date.now());
    return true;
  }, 40);
  const first = Date.now();
  for (let index = 0; index < 100; index++) cleaner.noteWrite();
  await cleaner.settled();
  assert.equal(started.length, 1);
  assert.ok(started[0]! - first >= 35, `moved after ${started[0]! - first} ms`);
  await sleep(100);
  assert.equal(started.length, 1, 'an idle cleaner sends nothing');
});

test('a write during a move gets one more move after it, not one per write', async () => {
  let moves = 0;
  let release: () => void = () => undefined;
  const cleaner = new PendingListCleaner(async () => {
    moves += 1;
    if (moves === 1) await new Promise<void>((resolve) => (release = resolve));
    return true;
  }, 10);
  cleaner.noteWrite();
  await sleep(40);
  assert.equal(moves, 1);
  for (let index = 0; index < 20; index++) cleaner.noteWrite(); // while the first move runs
  await sleep(40);
  assert.equal(moves, 1, 'never two moves at once');
  release();
  await cleaner.settled();
  assert.equal(moves, 2);
});

test('a refused move is tried again; a failed one waits for the next write', async () => {
  const answers: Array<boolean | Error> = [false, false, true, new Error('database down')];
  let moves = 0;
  const cleaner = new PendingListCleaner(async () => {
    const answer = answers[moves++]!;
    if (answer instanceof Error) throw answer;
    return answer;
  }, 5);
  cleaner.noteWrite();
  await cleaner.settled();
  assert.equal(moves, 3);
  cleaner.noteWrite();
  await cleaner.settled();
  assert.equal(moves, 4);
  await sleep(50);
  assert.equal(moves, 4, 'no retry loop after a failure');
});

test('after stop() nothing is moved, and stop() waits for the move in flight', async () => {
  let finished = 0;
  const cleaner = new PendingListCleaner(async () => {
    await sleep(30);
    finished += 1;
    return true;
  }, 5);
  cleaner.noteWrite();
  await sleep(15); // the move is in flight
  await cleaner.stop();
  assert.equal(finished, 1);
  cleaner.noteWrite();
  await sleep(50);
  assert.equal(finished, 1);
});
