import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig, truthy } from '../src/config.js';

test('loadConfig gives the documented defaults for an empty environment', () => {
  const config = loadConfig({});
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.port, 8000);
  assert.equal(config.logLevel, 'info');
  assert.equal(config.chaosHeadersEnabled, false);
  assert.equal(config.trafficGeneratorEnabled, false);
  assert.equal(config.responseWriteBatching, true);
});

test("JWT_ISSUER and JWT_AUDIENCE name the API's own tokens, books-service and books-api by default", () => {
  assert.deepEqual(loadConfig({}).auth.tokenClaims, { issuer: 'books-service', audience: 'books-api' });
  assert.deepEqual(loadConfig({ JWT_ISSUER: 'https://books.example', JWT_AUDIENCE: 'books' }).auth.tokenClaims, {
    issuer: 'https://books.example',
    audience: 'books',
  });
});

test('the login throttle counts per (user name, client), per client and per user name over all clients', () => {
  assert.deepEqual(loadConfig({}).auth.loginThrottle, {
    maxFailuresPerUsername: 5,
    maxFailuresPerClient: 20,
    maxFailuresPerUsernameAllClients: 100,
    windowSeconds: 300,
  });
  const set = loadConfig({
    LOGIN_MAX_FAILURES_PER_USERNAME: '3',
    LOGIN_MAX_FAILURES_PER_CLIENT: '9',
    LOGIN_MAX_FAILURES_PER_USERNAME_ALL_CLIENTS: '40',
    LOGIN_FAILURE_WINDOW_SECONDS: '60',
  }).auth.loginThrottle;
  assert.deepEqual(set, {
    maxFailuresPerUsername: 3,
    maxFailuresPerClient: 9,
    maxFailuresPerUsernameAllClients: 40,
    windowSeconds: 60,
  });
});

test('TRUST_PROXY: unset trusts no proxy; a hop count, or addresses, CIDR ranges and range names', () => {
  assert.deepEqual(loadConfig({}).trustProxy, { kind: 'none' });
  assert.deepEqual(loadConfig({ TRUST_PROXY: '' }).trustProxy, { kind: 'none' });
  assert.deepEqual(loadConfig({ TRUST_PROXY: ' 2 ' }).trustProxy, { kind: 'hops', hops: 2 });
  assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8, ::1, loopback' }).trustProxy, {
    kind: 'addresses',
    addresses: ['10.0.0.0/8', '192.168.1.7', 'fd00::/8', '::1', 'loopback'],
  });
});

test('AUTH_OIDC_*: unset means only the API own tokens; an https or loopback issuer with its audience and roles claim', () => {
  assert.equal(loadConfig({}).auth.identityProvider, undefined);
  assert.deepEqual(
    loadConfig({
      AUTH_OIDC_ISSUER: 'https://login.microsoftonline.com/tenant-id/v2.0',
      AUTH_OIDC_AUDIENCE: 'api://books',
    }).auth.identityProvider,
    {
      issuer: 'https://login.microsoftonline.com/tenant-id/v2.0',
      audience: 'api://books',
      rolesClaim: undefined,
      docs: undefined,
    },
  );
  for (const issuer of ['http://127.0.0.1:8080/realms/books', 'http://localhost:8080', 'http://[::1]:9000']) {
    const config = loadConfig({
      AUTH_OIDC_ISSUER: issuer,
      AUTH_OIDC_AUDIENCE: 'b',
      AUTH_OIDC_ROLES_CLAIM: 'realm_access.roles',
    });
    assert.deepEqual(config.auth.identityProvider, {
      issuer,
      audience: 'b',
      rolesClaim: 'realm_access.roles',
      docs: undefined,
    });
  }
});

test('AUTH_OIDC_DOCS_CLIENT_ID and AUTH_OIDC_DOCS_SCOPES: /docs signs in with the provider, asking for those scopes', () => {
  const provider = { AUTH_OIDC_ISSUER: 'https://idp.example/realms/books', AUTH_OIDC_AUDIENCE: 'books-api' };
  assert.deepEqual(loadConfig({ ...provider, AUTH_OIDC_DOCS_CLIENT_ID: 'books-docs' }).auth.identityProvider?.docs, {
    clientId: 'books-docs',
    scopes: [],
  });
  const docs = loadConfig({
    ...provider,
    AUTH_OIDC_DOCS_CLIENT_ID: 'books-docs',
    AUTH_OIDC_DOCS_SCOPES: ' openid  api://books/Books.Read ',
  }).auth.identityProvider?.docs;
  assert.deepEqual(docs, { clientId: 'books-docs', scopes: ['openid', 'api://books/Books.Read'] });
});

test('RESPONSE_WRITE_BATCHING takes the switch words', () => {
  assert.equal(loadConfig({ RESPONSE_WRITE_BATCHING: 'off' }).responseWriteBatching, false);
  assert.equal(loadConfig({ RESPONSE_WRITE_BATCHING: 'No' }).responseWriteBatching, false);
  assert.equal(loadConfig({ RESPONSE_WRITE_BATCHING: 'on' }).responseWriteBatching, true);
});

test('loadConfig reads HOST, PORT and LOG_LEVEL', () => {
  const config = loadConfig({ HOST: '0.0.0.0', PORT: '8123', LOG_LEVEL: 'DEBUG' });
  assert.deepEqual([config.host, config.port, config.logLevel], ['0.0.0.0', 8123, 'debug']);
  assert.equal(loadConfig({ PORT: '0' }).port, 0);
  assert.equal(loadConfig({ PORT: '65535' }).port, 65535);
});

test('a bad value throws an error naming the variable', () => {
  const cases: [Record<string, string>, string][] = [
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '65536' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ PORT: '80.5' }, 'PORT'],
    [{ PORT: '' }, 'PORT'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ HOST: '  ' }, 'HOST'],
    [{ LOGIN_MAX_CONCURRENT_VERIFICATIONS: '0' }, 'LOGIN_MAX_CONCURRENT_VERIFICATIONS'],
    [{ LOGIN_MAX_QUEUED_VERIFICATIONS: 'many' }, 'LOGIN_MAX_QUEUED_VERIFICATIONS'],
    [{ HEADERS_TIMEOUT_SECONDS: '0' }, 'HEADERS_TIMEOUT_SECONDS'],
    [{ HEADERS_TIMEOUT_SECONDS: '40', REQUEST_TIMEOUT_SECONDS: '30' }, 'HEADERS_TIMEOUT_SECONDS'],
    [{ REQUEST_TIMEOUT_SECONDS: 'soon' }, 'REQUEST_TIMEOUT_SECONDS'],
    [{ KEEP_ALIVE_TIMEOUT_SECONDS: '-1' }, 'KEEP_ALIVE_TIMEOUT_SECONDS'],
    [{ MAX_CONNECTIONS: '0' }, 'MAX_CONNECTIONS'],
    [{ MAX_REQUESTS_PER_CONNECTION: '1.5' }, 'MAX_REQUESTS_PER_CONNECTION'],
    [{ SHUTDOWN_TIMEOUT_SECONDS: '' }, 'SHUTDOWN_TIMEOUT_SECONDS'],
    [{ RESPONSE_WRITE_BATCHING: 'perhaps' }, 'RESPONSE_WRITE_BATCHING'],
    [{ JWT_ISSUER: ' ' }, 'JWT_ISSUER'],
    [{ LOGIN_MAX_FAILURES_PER_USERNAME_ALL_CLIENTS: '0' }, 'LOGIN_MAX_FAILURES_PER_USERNAME_ALL_CLIENTS'],
    [
      { LOGIN_MAX_FAILURES_PER_USERNAME_ALL_CLIENTS: '5', LOGIN_MAX_FAILURES_PER_USERNAME: '5' },
      'LOGIN_MAX_FAILURES_PER_USERNAME_ALL_CLIENTS',
    ],
    [{ LOGIN_MAX_FAILURES_PER_USERNAME_ALL_CLIENTS: '1' }, 'LOGIN_MAX_FAILURES_PER_USERNAME_ALL_CLIENTS'],
    [
      { LOGIN_MAX_FAILURES_PER_USERNAME: '50', LOGIN_MAX_FAILURES_PER_USERNAME_ALL_CLIENTS: '40' },
      'LOGIN_MAX_FAILURES_PER_USERNAME_ALL_CLIENTS',
    ],
    [{ AUTH_OIDC_ISSUER: 'http://idp.example/realms/books', AUTH_OIDC_AUDIENCE: 'books' }, 'AUTH_OIDC_ISSUER'],
    [{ AUTH_OIDC_ISSUER: 'not a url', AUTH_OIDC_AUDIENCE: 'books' }, 'AUTH_OIDC_ISSUER'],
    [{ AUTH_OIDC_ISSUER: 'https://idp.example/?tenant=1', AUTH_OIDC_AUDIENCE: 'books' }, 'AUTH_OIDC_ISSUER'],
    [{ AUTH_OIDC_ISSUER: 'https://idp.example/realms/books' }, 'AUTH_OIDC_AUDIENCE'],
    [{ AUTH_OIDC_AUDIENCE: 'books' }, 'AUTH_OIDC_ISSUER'],
    [
      { AUTH_OIDC_ISSUER: 'https://idp.example', AUTH_OIDC_AUDIENCE: 'b', JWT_ISSUER: 'https://idp.example' },
      'AUTH_OIDC_ISSUER',
    ],
    [
      { AUTH_OIDC_ISSUER: 'https://idp.example', AUTH_OIDC_AUDIENCE: 'b', AUTH_OIDC_ROLES_CLAIM: 'realm..roles' },
      'AUTH_OIDC_ROLES_CLAIM',
    ],
    [{ AUTH_OIDC_DOCS_CLIENT_ID: 'books-docs' }, 'AUTH_OIDC_ISSUER'],
    [
      { AUTH_OIDC_ISSUER: 'https://idp.example', AUTH_OIDC_AUDIENCE: 'b', AUTH_OIDC_DOCS_SCOPES: 'openid' },
      'AUTH_OIDC_DOCS_CLIENT_ID',
    ],
    [
      {
        AUTH_OIDC_ISSUER: 'https://idp.example',
        AUTH_OIDC_AUDIENCE: 'b',
        AUTH_OIDC_DOCS_CLIENT_ID: 'c',
        AUTH_OIDC_DOCS_SCOPES: 'openid "profile"',
      },
      'AUTH_OIDC_DOCS_SCOPES',
    ],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '*' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '0' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '11' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1,,10.0.0.2' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'ingress.local' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1/8/2' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'fd00::/129' }, 'TRUST_PROXY'],
    [{ JWT_AUDIENCE: '' }, 'JWT_AUDIENCE'],
  ];
  for (const [env, variable] of cases) {
    assert.throws(
      () => loadConfig(env),
      (error: unknown) =>
        error instanceof ConfigError && error.variable === variable && error.message.includes(variable),
      JSON.stringify(env),
    );
  }
});

test('the switch words true/1/yes/on enable in any case; anything else disables', () => {
  for (const word of ['true', 'TRUE', '1', 'yes', 'Yes', 'on', ' ON ']) assert.equal(truthy(word), true, word);
  for (const word of ['false', '0', 'no', 'off', '', 'enabled', 'y']) assert.equal(truthy(word), false, word);
  assert.equal(loadConfig({ ENABLE_CHAOS_HEADERS: 'Yes' }).chaosHeadersEnabled, true);
  assert.equal(loadConfig({ ENABLE_TRAFFIC_GENERATOR: 'on' }).trafficGeneratorEnabled, true);
  assert.equal(loadConfig({ ENABLE_TRAFFIC_GENERATOR: 'nope' }).trafficGeneratorEnabled, false);
});

test('DATABASE_WAIT_TIMEOUT_MS: by default a second longer than the statement timeout, and never shorter than it', () => {
  const url = { DATABASE_URL: 'postgres://books@127.0.0.1:5432/books' };
  assert.equal(loadConfig(url).database?.statementTimeoutMs, 5000);
  assert.equal(loadConfig(url).database?.waitTimeoutMs, 6000);
  assert.equal(loadConfig({ ...url, DATABASE_STATEMENT_TIMEOUT_MS: '20000' }).database?.waitTimeoutMs, 21_000);
  const both = { ...url, DATABASE_WAIT_TIMEOUT_MS: '2500', DATABASE_STATEMENT_TIMEOUT_MS: '2000' };
  assert.equal(loadConfig(both).database?.waitTimeoutMs, 2500);
  for (const env of [
    { DATABASE_WAIT_TIMEOUT_MS: '5000', DATABASE_STATEMENT_TIMEOUT_MS: '5000' },
    { DATABASE_WAIT_TIMEOUT_MS: '1' },
    { DATABASE_WAIT_TIMEOUT_MS: 'soon' },
    { DATABASE_WAIT_TIMEOUT_MS: '0' },
    { DATABASE_WAIT_TIMEOUT_MS: '1500', DATABASE_STATEMENT_TIMEOUT_MS: '2000' },
  ]) {
    assert.throws(
      () => loadConfig({ ...url, ...env }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.variable === 'DATABASE_WAIT_TIMEOUT_MS' &&
        error.message.includes('DATABASE_WAIT_TIMEOUT_MS'),
      JSON.stringify(env),
    );
  }
});

test('a limit left unset follows the limit it is tied to, so setting one alone never stops the start', () => {
  const throttle = (env: Record<string, string>) => {
    const { maxFailuresPerUsername, maxFailuresPerUsernameAllClients } = loadConfig(env).auth.loginThrottle;
    return [maxFailuresPerUsername, maxFailuresPerUsernameAllClients];
  };
  assert.deepEqual(throttle({}), [5, 100]);
  assert.deepEqual(throttle({ LOGIN_MAX_FAILURES_PER_USERNAME: '10' }), [10, 200]);
  assert.deepEqual(throttle({ LOGIN_MAX_FAILURES_PER_USERNAME: '200' }), [200, 4000]);
  assert.deepEqual(throttle({ LOGIN_MAX_FAILURES_PER_USERNAME: '2' }), [2, 40]);
  assert.deepEqual(throttle({ LOGIN_MAX_FAILURES_PER_USERNAME_ALL_CLIENTS: '50' }), [2, 50]);
  assert.deepEqual(throttle({ LOGIN_MAX_FAILURES_PER_USERNAME_ALL_CLIENTS: '5' }), [1, 5]);
  assert.deepEqual(throttle({ LOGIN_MAX_FAILURES_PER_USERNAME_ALL_CLIENTS: '1000' }), [5, 1000]);

  const timeouts = (env: Record<string, string>) => {
    const { headersTimeoutMs, requestTimeoutMs } = loadConfig(env).connections;
    return [headersTimeoutMs / 1000, requestTimeoutMs / 1000];
  };
  assert.deepEqual(timeouts({}), [10, 30]);
  assert.deepEqual(timeouts({ REQUEST_TIMEOUT_SECONDS: '5' }), [5, 5]);
  assert.deepEqual(timeouts({ HEADERS_TIMEOUT_SECONDS: '60' }), [60, 60]);
  assert.deepEqual(timeouts({ HEADERS_TIMEOUT_SECONDS: '4' }), [4, 30]);

  const database = (env: Record<string, string>) => {
    const settings = loadConfig({ DATABASE_URL: 'postgres://books@127.0.0.1:5432/books', ...env }).database;
    return [settings?.statementTimeoutMs, settings?.waitTimeoutMs];
  };
  assert.deepEqual(database({ DATABASE_WAIT_TIMEOUT_MS: '3000' }), [2000, 3000]);
  assert.deepEqual(database({ DATABASE_WAIT_TIMEOUT_MS: '1500' }), [750, 1500]);
  assert.deepEqual(database({ DATABASE_WAIT_TIMEOUT_MS: '20000' }), [5000, 20_000]);
  assert.deepEqual(database({ DATABASE_STATEMENT_TIMEOUT_MS: '20000' }), [20_000, 21_000]);
});

test('a contradiction between two limits the user set stops the start, naming both variables', () => {
  const cases: [Record<string, string>, string, string][] = [
    [
      { LOGIN_MAX_FAILURES_PER_USERNAME: '200', LOGIN_MAX_FAILURES_PER_USERNAME_ALL_CLIENTS: '100' },
      'LOGIN_MAX_FAILURES_PER_USERNAME_ALL_CLIENTS',
      'LOGIN_MAX_FAILURES_PER_USERNAME ',
    ],
    [
      { HEADERS_TIMEOUT_SECONDS: '60', REQUEST_TIMEOUT_SECONDS: '30' },
      'HEADERS_TIMEOUT_SECONDS',
      'REQUEST_TIMEOUT_SECONDS',
    ],
    [
      {
        DATABASE_URL: 'postgres://books@127.0.0.1:5432/books',
        DATABASE_WAIT_TIMEOUT_MS: '3000',
        DATABASE_STATEMENT_TIMEOUT_MS: '5000',
      },
      'DATABASE_WAIT_TIMEOUT_MS',
      'DATABASE_STATEMENT_TIMEOUT_MS',
    ],
  ];
  for (const [env, variable, other] of cases) {
    assert.throws(
      () => loadConfig(env),
      (error: unknown) => error instanceof ConfigError && error.variable === variable && error.message.includes(other),
      JSON.stringify(env),
    );
  }
});
