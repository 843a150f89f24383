// /docs signs in with the identity provider (AUTH_OIDC_DOCS_CLIENT_ID): the OpenAPI document
// offers the provider's authorization-code flow beside the password login, Swagger UI is set up
// for PKCE with the client id, and /docs' CSP allows the provider's token endpoint, nothing more.
// The browser journey itself is e2e/docs-provider-sign-in.test.ts.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { buildApp } from '../../../src/app.js';
import { defaultConfig } from '../../../src/config.js';
import { SWAGGER_UI_CSP } from '../../../src/routes/docs.js';
import { silentLogger } from '../../postgres.js';
import { READER, hs256Config, loginForm, newSecret } from '../fixtures.js';
import { RESOURCE, TestProvider, signingKey } from './test-provider.js';

const SCOPES = ['openid', 'api://books/Books.Read'];

async function startApi(t: TestContext, issuer: string, docsClientId: string | undefined) {
  const own = await hs256Config(newSecret());
  const docs = docsClientId === undefined ? undefined : { clientId: docsClientId, scopes: SCOPES };
  const config = defaultConfig({
    ...own,
    auth: { ...own.auth!, identityProvider: { issuer, audience: RESOURCE, rolesClaim: undefined, docs } },
  });
  const app = await buildApp({ config, logger: silentLogger });
  t.after(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  await app.auth.providerKeys?.firstRound();
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

async function startProvider(t: TestContext) {
  const provider = await TestProvider.start([], [await signingKey('RS256', 'key-1')]);
  t.after(() => provider.close());
  return provider;
}

const getJson = async (url: string): Promise<any> => (await fetch(url)).json();

function directives(csp: string | null): string[] {
  return (csp ?? '').split(';').map((directive) => directive.trim());
}

test('with AUTH_OIDC_DOCS_CLIENT_ID the document offers the provider authorization-code flow beside the password login', async (t) => {
  const provider = await startProvider(t);
  const api = await startApi(t, provider.issuer, 'books-docs');
  for (const path of ['/openapi.json', '/docs/json']) {
    const document = await getJson(`${api}${path}`);
    const schemes = document.components.securitySchemes;
    assert.deepEqual(schemes.OAuth2PasswordBearer, {
      type: 'oauth2',
      flows: { password: { tokenUrl: '/token', scopes: {} } },
    });
    assert.deepEqual(schemes.OAuth2AuthorizationCodeBearer.flows, {
      authorizationCode: {
        authorizationUrl: `${provider.issuer}/auth`,
        tokenUrl: `${provider.issuer}/token`,
        scopes: { openid: 'openid', 'api://books/Books.Read': 'api://books/Books.Read' },
      },
    });
    // The protected list: anonymous, or either way of signing in.
    assert.deepEqual(document.paths['/api/v1/books'].get.security, [
      {},
      { OAuth2PasswordBearer: [] },
      { OAuth2AuthorizationCodeBearer: [] },
    ]);
    assert.deepEqual(document.paths['/api/v1/books'].post.security, [], `${path}: open without AUTH_REQUIRED`);
  }
});

test('with AUTH_OIDC_DOCS_CLIENT_ID Swagger UI uses PKCE with that client, and /docs may reach the token endpoint only', async (t) => {
  const provider = await startProvider(t);
  const api = await startApi(t, provider.issuer, 'books-docs');
  const initializer = await (await fetch(`${api}/docs/static/swagger-initializer.js`)).text();
  assert.match(
    initializer,
    /ui\.initOAuth\(\{"clientId":"books-docs","usePkceWithAuthorizationCodeGrant":true,"scopes":\["openid","api:\/\/books\/Books\.Read"\]\}\)/,
  );
  const expected = directives(SWAGGER_UI_CSP).map((directive) =>
    directive === "connect-src 'self'" ? `connect-src 'self' ${provider.issuer}` : directive,
  );
  for (const path of ['/docs', '/docs/static/oauth2-redirect.html', '/docs/json']) {
    const response = await fetch(`${api}${path}`);
    assert.equal(response.status, 200, path);
    assert.deepEqual(directives(response.headers.get('content-security-policy')), expected, path);
  }
  // Swagger UI fills the password dialog's client_id too and sends it as Basic credentials: ignored.
  const login = await fetch(`${api}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from('books-docs:').toString('base64')}`,
    },
    body: loginForm({ username: READER.username, password: READER.password, grant_type: 'password' }),
  });
  assert.equal(login.status, 200);
});

test('without AUTH_OIDC_DOCS_CLIENT_ID, or while the provider is unreachable, /docs offers the password login only', async (t) => {
  const provider = await startProvider(t);
  const withoutClient = await startApi(t, provider.issuer, undefined);
  const stopped = await TestProvider.start([], [await signingKey('RS256', 'key-1')]);
  await stopped.close();
  const unreachable = await startApi(t, stopped.issuer, 'books-docs');
  for (const api of [withoutClient, unreachable]) {
    for (const path of ['/openapi.json', '/docs/json']) {
      const document = await getJson(`${api}${path}`);
      assert.deepEqual(Object.keys(document.components.securitySchemes), ['OAuth2PasswordBearer'], path);
    }
    const page = await fetch(`${api}/docs`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-security-policy'), SWAGGER_UI_CSP);
  }
  const initializer = await (await fetch(`${withoutClient}/docs/static/swagger-initializer.js`)).text();
  assert.match(initializer, /ui\.initOAuth\(\{\}\)/);
});
