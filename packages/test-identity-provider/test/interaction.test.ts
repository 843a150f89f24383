import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import Provider from 'oidc-provider';
import { answerInteraction, escapeHtml, INTERACTIONS, interactionUid } from '../src/index.js';

const REDIRECT_URI = 'http://127.0.0.1/callback';
const USERS = new Map([['rita', { login: 'rita', password: 'demo-password-not-a-secret' }]]);
let issuer: string;
let close: () => void;

before(async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'app',
        token_endpoint_auth_method: 'none',
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), alg: 'RS256', use: 'sig', kid: 'test' }] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    features: { devInteractions: { enabled: false } },
    ttl: { AccessToken: 300, Grant: 300, IdToken: 300, Interaction: 300, Session: 300 },
    interactions: INTERACTIONS,
    findAccount: (_ctx, sub) => (USERS.has(sub) ? { accountId: sub, claims: () => ({ sub }) } : undefined),
  });
  const handler = provider.callback();
  server.on('request', (request, response) => {
    const uid = interactionUid(request.url ?? '');
    if (uid === undefined) void handler(request, response);
    else answerInteraction(provider, USERS, request, response, uid);
  });
  close = () => {
    server.closeAllConnections();
    server.close();
  };
});

after(() => close?.());

/** A browser's part, by hand: cookies kept per name, redirects followed while they stay on the issuer. */
function browser() {
  const cookies = new Map<string, string>();
  return async function go(url: string, init: RequestInit = {}): Promise<Response> {
    for (;;) {
      const response = await fetch(url, {
        ...init,
        redirect: 'manual',
        headers: { ...init.headers, cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
      });
      for (const cookie of response.headers.getSetCookie()) {
        const [pair = ''] = cookie.split(';');
        const at = pair.indexOf('=');
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const location = response.headers.get('location');
      if (location === null || !new URL(location, issuer).href.startsWith(issuer)) return response;
      url = new URL(location, issuer).href;
      init = {};
    }
  };
}

function signIn(login: string, password: string): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ login, password }).toString(),
  };
}

test('the authorization code flow signs a user in with a password and grants consent at once', async () => {
  const go = browser();
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL('/auth', issuer);
  authorize.search = new URLSearchParams({
    client_id: 'app',
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid',
    state: 'state-1',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();

  const form = await go(authorize.href);
  assert.equal(form.status, 200);
  const html = await form.text();
  assert.match(html, /<h1>Test identity provider: sign in<\/h1>/);
  const action = /action="([^"]+)"/.exec(html)?.[1];
  assert.ok(action !== undefined && interactionUid(action) !== undefined, html);

  const refused = await go(new URL(action, issuer).href, signIn('rita', 'wrong'));
  assert.equal(refused.status, 401);
  assert.match(await refused.text(), /<p role="alert">Unknown user or wrong password<\/p>/);

  const unknown = await go(new URL(action, issuer).href, signIn('omar', 'demo-password-not-a-secret'));
  assert.equal(unknown.status, 401);
  await unknown.arrayBuffer();

  const back = await go(new URL(action, issuer).href, signIn('rita', 'demo-password-not-a-secret'));
  assert.equal(back.status, 303);
  const callback = new URL(back.headers.get('location') ?? '');
  assert.equal(`${callback.origin}${callback.pathname}`, REDIRECT_URI);
  assert.equal(callback.searchParams.get('state'), 'state-1');
  const code = callback.searchParams.get('code');
  assert.ok(code, callback.href);

  const token = await fetch(new URL('/token', issuer), {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: 'app',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    }),
  });
  assert.equal(token.status, 200);
  const { id_token: idToken } = (await token.json()) as { id_token: string };
  const claims = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
    sub: string;
  };
  assert.equal(claims.sub, 'rita');
});

test('an interaction that does not exist answers a page naming the failure, not a hang', async () => {
  const response = await fetch(new URL('/interaction/no-such-interaction', issuer));
  assert.equal(response.status, 500);
  assert.match(await response.text(), /<h1>Interaction failed<\/h1>/);
});

test('interactionUid names our pages only; escapeHtml leaves no markup', () => {
  assert.equal(interactionUid('/interaction/abc123?x=1'), 'abc123');
  assert.equal(interactionUid('/auth/abc123'), undefined);
  assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
});
