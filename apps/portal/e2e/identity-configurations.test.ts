/**
 * How the portal's sign-in is configured, on its production server: on https the code flow with
 * PKCE, state and nonce and __Host- Secure cookies; PORTAL_AUTH=none lets everyone in and says so;
 * no start without PORTAL_AUTH outside development mode or with a short session secret.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { freePort, startPortalServer } from '../kube-stand-in/portal-server';
import { startTestIdentityProvider, type TestIdentityProvider } from './test-identity-provider';

const SESSION_SECRET = randomBytes(48).toString('base64');

let provider: TestIdentityProvider;

// The provider only answers discovery here: nobody signs in.
before(async () => {
  const port = await freePort();
  provider = await startTestIdentityProvider({
    port,
    users: [],
    client: {
      clientId: 'platform-portal',
      clientSecret: randomBytes(24).toString('base64url'),
      redirectUri: 'https://portal.example.test/api/auth/callback/oidc',
      postLogoutRedirectUri: 'https://portal.example.test/signed-out',
    },
  });
});

after(async () => {
  await provider?.close();
});

describe('portal sign-in configurations', () => {
  it('on https asks the provider for the code flow with PKCE, state and nonce, and keeps its cookies __Host- and Secure', async () => {
    const publicUrl = 'https://portal.example.test';
    const https = await startPortalServer({
      env: {
        PORTAL_MOCK_PLATFORM: 'true',
        PORTAL_AUTH: 'oidc',
        PORTAL_OIDC_ISSUER: provider.issuer,
        PORTAL_OIDC_CLIENT_ID: 'platform-portal',
        PORTAL_OIDC_CLIENT_SECRET: 'unused-here',
        PORTAL_OIDC_SCOPES: 'groups',
        PORTAL_PUBLIC_URL: publicUrl,
        PORTAL_SESSION_SECRET: SESSION_SECRET,
      },
    });
    try {
      const page = await fetch(`${https.url}/resources`, { redirect: 'manual' });
      assert.equal(page.status, 303);
      assert.equal(page.headers.get('location'), `${publicUrl}/api/auth/signin?returnTo=%2Fresources`);

      const started = await fetch(`${https.url}/api/auth/signin?returnTo=%2Fresources`, { redirect: 'manual' });
      assert.equal(started.status, 303);
      const authorize = new URL(started.headers.get('location') ?? '');
      assert.equal(`${authorize.origin}${authorize.pathname}`, `${provider.issuer}/auth`);
      const query = authorize.searchParams;
      assert.equal(query.get('response_type'), 'code');
      assert.equal(query.get('client_id'), 'platform-portal');
      assert.equal(query.get('redirect_uri'), `${publicUrl}/api/auth/callback/oidc`);
      assert.deepEqual(query.get('scope')?.split(' ').sort(), ['email', 'groups', 'openid', 'profile']);
      assert.equal(query.get('code_challenge_method'), 'S256');
      assert.match(query.get('code_challenge') ?? '', /^[\w-]{43}$/);
      assert.ok((query.get('state') ?? '').length >= 22, 'a random state');
      assert.ok((query.get('nonce') ?? '').length >= 22, 'a random nonce');

      const cookie = started.headers.get('set-cookie') ?? '';
      assert.match(cookie, /^__Host-portal-sign-in-[\w-]{16,128}=/);
      assert.match(cookie, /; Secure/i);
      assert.match(cookie, /; HttpOnly/i);
      assert.match(cookie, /; SameSite=Lax/i);
      assert.match(cookie, /; Path=\//);
    } finally {
      await https.stop();
    }
  });

  it('with PORTAL_AUTH=none lets everyone in as the admin anonymous and says so on every page', async () => {
    const open = await startPortalServer({ env: { PORTAL_MOCK_PLATFORM: 'true', PORTAL_AUTH: 'none' } });
    try {
      const page = await fetch(`${open.url}/resources`, { redirect: 'manual' });
      assert.equal(page.status, 200);
      assert.match(await page.text(), /No sign-in \(PORTAL_AUTH=none\)/);
      const api = await fetch(`${open.url}/api/platform/resources`);
      assert.equal(api.status, 200);
    } finally {
      await open.stop();
    }
  });
});

describe('portal refuses to start without a safe sign-in configuration', () => {
  it('stops when PORTAL_AUTH is unset outside development mode', async () => {
    await assert.rejects(
      startPortalServer({ env: { PORTAL_MOCK_PLATFORM: 'false', PORTAL_AUTH: '' } }),
      /exited with code 1[\s\S]*PORTAL_AUTH must be set outside development mode/,
    );
  });

  it('stops when the session secret is shorter than 32 bytes', async () => {
    await assert.rejects(
      startPortalServer({
        env: { PORTAL_MOCK_PLATFORM: 'true', PORTAL_AUTH: 'none', PORTAL_SESSION_SECRET: 'too-short' },
      }),
      /exited with code 1[\s\S]*PORTAL_SESSION_SECRET must be at least 32 bytes/,
    );
  });
});
