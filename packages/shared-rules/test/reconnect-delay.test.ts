import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_RECONNECT_DELAY_SECONDS, reconnectDelaySeconds } from '../src/index.js';

/** Enough draws that each attempt's delay visits both ends of its jitter. */
const DRAWS = 2000;

function draws(attempt: number): number[] {
  return Array.from({ length: DRAWS }, () => reconnectDelaySeconds(attempt));
}

test('the first attempts come soon after a failure, and later ones further apart', () => {
  assert.ok(Math.max(...draws(1)) <= 0.1);
  assert.ok(Math.max(...draws(1)) < Math.min(...draws(4)));
});

test('no pause is ever longer than MAX_RECONNECT_DELAY_SECONDS, however many attempts failed', () => {
  for (const attempt of [0, 1, 5, 10, 20, 100, 10_000]) {
    for (const delay of draws(attempt)) {
      assert.ok(delay >= 0 && delay <= MAX_RECONNECT_DELAY_SECONDS, `attempt ${attempt}: ${delay}`);
    }
  }
});

test('pauses are jittered between half and all of the grown delay, so pools do not knock together', () => {
  const delays = draws(50);
  assert.ok(Math.min(...delays) >= MAX_RECONNECT_DELAY_SECONDS / 2);
  assert.ok(Math.max(...delays) - Math.min(...delays) > MAX_RECONNECT_DELAY_SECONDS / 4);
});
