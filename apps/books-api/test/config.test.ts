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
    [{ HEADERS_TIMEOUT_SECONDS: '40' }, 'HEADERS_TIMEOUT_SECONDS'],
    [{ REQUEST_TIMEOUT_SECONDS: 'soon' }, 'REQUEST_TIMEOUT_SECONDS'],
    [{ KEEP_ALIVE_TIMEOUT_SECONDS: '-1' }, 'KEEP_ALIVE_TIMEOUT_SECONDS'],
    [{ MAX_CONNECTIONS: '0' }, 'MAX_CONNECTIONS'],
    [{ MAX_REQUESTS_PER_CONNECTION: '1.5' }, 'MAX_REQUESTS_PER_CONNECTION'],
    [{ SHUTDOWN_TIMEOUT_SECONDS: '' }, 'SHUTDOWN_TIMEOUT_SECONDS'],
    [{ RESPONSE_WRITE_BATCHING: 'perhaps' }, 'RESPONSE_WRITE_BATCHING'],
    [{ JWT_ISSUER: ' ' }, 'JWT_ISSUER'],
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
