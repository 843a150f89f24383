import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { buildTestApp } from '../helper.js';
import { READER, hs256Config, login } from './fixtures.js';

const SAMPLES = 15;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * A property comparison, not an absolute time limit: an unknown user name costs one argon2id
 * verification against the dummy hash, like a wrong password. Without the dummy hash the
 * unknown-user login would be hundreds of times faster, far outside the generous band.
 */
test('POST /token takes about as long for an unknown user, or a name over 256 characters, as for a wrong password', async (t) => {
  const limits = {
    maxFailuresPerUsername: 1_000,
    maxFailuresPerClient: 1_000,
    maxFailuresPerUsernameAllClients: 2_000,
    windowSeconds: 60,
  };
  const app = await buildTestApp(t, { config: await hs256Config(undefined, { loginThrottle: limits }) });
  const timeLogin = async (username: string) => {
    const started = performance.now();
    const response = await login(app, { username, password: 'wrong-password' });
    assert.equal(response.statusCode, 401);
    return performance.now() - started;
  };
  await timeLogin(READER.username); // warm-up
  const wrongPassword: number[] = [];
  const unknownUser: number[] = [];
  const overLongName: number[] = [];
  // Interleaved, so background load on the machine affects both series alike.
  for (let sample = 0; sample < SAMPLES; sample += 1) {
    wrongPassword.push(await timeLogin(READER.username));
    unknownUser.push(await timeLogin(`unknown-${sample}`));
    overLongName.push(await timeLogin(`${READER.username}${'x'.repeat(300)}-${sample}`));
  }
  const ratio = median(unknownUser) / median(wrongPassword);
  t.diagnostic(
    `median login time: wrong password ${median(wrongPassword).toFixed(1)} ms, unknown user ${median(unknownUser).toFixed(1)} ms, ratio ${ratio.toFixed(2)} (${SAMPLES} samples each)`,
  );
  assert.ok(
    ratio > 0.5 && ratio < 2,
    `unknown-user / wrong-password median ratio ${ratio.toFixed(2)} is outside 0.5-2`,
  );
  const overLongRatio = median(overLongName) / median(wrongPassword);
  t.diagnostic(`over-long name ${median(overLongName).toFixed(1)} ms, ratio ${overLongRatio.toFixed(2)}`);
  assert.ok(
    overLongRatio > 0.5 && overLongRatio < 2,
    `over-long-name / wrong-password median ratio ${overLongRatio.toFixed(2)} is outside 0.5-2`,
  );
});
