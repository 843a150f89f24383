/**
 * A refused configuration stops the production server (`next start`) naming the variable, and
 * nothing the process prints holds the user or password a refused URL carried, nor a secret
 * (contract: "Configuration errors").
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startPortalServer } from '../kube-stand-in/portal-server';

const USER = 'portal-db-user';
const PASSWORD = 'pa55-W0rd-n0t-for-logs';
const SUBSCRIPTION = { PORTAL_AZURE_SUBSCRIPTION_ID: '00000000-0000-4000-8000-000000000000' };

/** What the server printed before it exited; fails when it started instead. */
async function refusal(env: Record<string, string>): Promise<string> {
  try {
    const portal = await startPortalServer({ env: { PORTAL_MOCK_PLATFORM: 'true', ...env } });
    await portal.stop();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    assert.match(message, /^The portal exited with code 1/, message);
    return message;
  }
  assert.fail(`the portal started with ${JSON.stringify(env)}`);
}

describe('configuration errors of the production server', () => {
  const cases: [string, Record<string, string>][] = [
    ['PORTAL_DATABASE_URL', { PORTAL_AUTH: 'none', PORTAL_DATABASE_URL: `postgres://${USER}:${PASSWORD}@db:port/p` }],
    ['PORTAL_DATABASE_URL', { PORTAL_AUTH: 'none', PORTAL_DATABASE_URL: `${USER}:${PASSWORD}@db.example/portal` }],
    [
      'PORTAL_AZURE_ARM_ENDPOINT',
      { PORTAL_AUTH: 'none', ...SUBSCRIPTION, PORTAL_AZURE_ARM_ENDPOINT: `https://${USER}:${PASSWORD}@arm.example` },
    ],
    [
      'PORTAL_AZURE_ARM_ENDPOINT',
      { PORTAL_AUTH: 'none', ...SUBSCRIPTION, PORTAL_AZURE_ARM_ENDPOINT: `https://${USER}:${PASSWORD}@arm:x` },
    ],
    ['PORTAL_SESSION_SECRET', { PORTAL_AUTH: 'none', PORTAL_SESSION_SECRET: PASSWORD }],
  ];
  for (const [variable, env] of cases) {
    it(`names ${variable} and prints no credential (${Object.values(env).at(-1)?.replace(PASSWORD, '<password>')})`, async () => {
      const printed = await refusal(env);
      assert.match(printed, new RegExp(`Configuration error: ${variable}`));
      assert.doesNotMatch(printed, new RegExp(PASSWORD));
      assert.doesNotMatch(printed, new RegExp(USER));
    });
  }
});
