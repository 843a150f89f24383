import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test, type TestContext } from 'node:test';
import addFormats from 'ajv-formats';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { OpenAPIBackend, type Operation } from 'openapi-backend';
import { defaultConfig, type Config } from '../../src/config.js';
import { MemoryBookStore } from '../../src/store/memory-book-store.js';
import { HEADER_COMPONENTS } from '../../src/openapi/response-headers.js';
import { FORM, NOBODY, READER, WRITER, hs256Config, loginForm, tokenFor } from '../auth/fixtures.js';
import { buildTestApp } from '../helper.js';
import { exchange, listeningApp, openSocket, parseResponses, readUntilClosed } from '../raw-http.js';

/** A server that waits for a client forever fails the raw-socket test at this bound instead of hanging. */
const BOUNDED = { timeout: 60_000 };

const CLEAN_CODE = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const NEW_BOOK = { title: 'Refactoring', author: 'Martin Fowler', year: 2018 };
const JSON_BODY = { 'content-type': 'application/json' };
/** The headers the document describes as components: each one the server sends must be declared. */
const DESCRIBED_HEADERS = Object.keys(HEADER_COMPONENTS).map((name) => name.toLowerCase());

/** A local port nothing listens on: bound by the system, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Case {
  request: InjectOptions & { method: NonNullable<InjectOptions['method']>; url: string };
  status: number;
}

/** The document the app serves, loaded into an OpenAPI response validator. */
async function validatorFor(app: FastifyInstance): Promise<OpenAPIBackend> {
  const definition = JSON.parse((await app.inject({ url: '/openapi.json' })).body) as never;
  const api = new OpenAPIBackend({
    definition,
    // openapi-backend checks definitions against OpenAPI 3.0's schema; the linters check ours (3.1).
    quick: true,
    customizeAjv: (ajv) => {
      addFormats.default(ajv);
      return ajv;
    },
  });
  await api.init();
  return api;
}

/** The documented operation of the request's path and method; for a 405, any operation of the path. */
function operationFor(api: OpenAPIBackend, method: string, url: string): Operation {
  const path = url.split('?', 1)[0]!;
  const match = (verb: string) => api.router.matchOperation({ method: verb, path, headers: {} });
  const operation = match(method) ?? ['get', 'post', 'head', 'options'].map(match).find(Boolean);
  assert.ok(operation, `${method} ${path} is a documented path`);
  return operation;
}

/** An answer as inject gives it, or as read from a raw socket (lower-case header names either way). */
type Answer = Pick<LightMyRequestResponse, 'statusCode' | 'body'> & {
  headers: Record<string, string | string[] | number | undefined>;
};

function assertDocumented(
  api: OpenAPIBackend,
  { request, status }: Case,
  response: Answer,
  // A HEAD answer has no body, unless the server answered before it could read the method.
  { bodyless = request.method === 'HEAD' }: { bodyless?: boolean } = {},
): void {
  const where = `${request.method} ${request.url} -> ${response.statusCode}`;
  assert.equal(response.statusCode, status, `${where}: ${response.body}`);
  const operation = operationFor(api, request.method, request.url);
  const documented = operation.responses?.[String(status)] as { headers?: Record<string, unknown> } | undefined;
  assert.ok(documented, `${where}: status documented by ${operation.operationId}`);

  const declared = Object.keys(documented.headers ?? {}).map((name) => name.toLowerCase());
  for (const name of DESCRIBED_HEADERS) {
    if (response.headers[name] !== undefined) assert.ok(declared.includes(name), `${where}: header ${name} documented`);
  }
  // Every declared header is sent, except Retry-After on a 503: only some causes of a 503 carry it
  // (a full login queue, an unavailable database), "token login is not configured" does not.
  for (const name of declared) {
    if (status === 503 && name === 'retry-after') continue;
    assert.ok(response.headers[name] !== undefined, `${where}: documented header ${name} sent`);
  }
  const headers = api.validator.validateResponseHeaders(response.headers, operation, {
    statusCode: status,
    setMatchType: 'any' as never,
  });
  assert.equal(headers.errors ?? null, null, `${where}: headers ${JSON.stringify(headers.errors)}`);

  const isJson = String(response.headers['content-type'] ?? '').startsWith('application/json');
  if (bodyless || status === 307) assert.equal(response.body, '', `${where}: no body`);
  else if (isJson) {
    const validation = api.validator.validateResponse(JSON.parse(response.body), operation, status);
    assert.equal(validation.errors ?? null, null, `${where}: body ${JSON.stringify(validation.errors)}`);
  }
}

async function check(t: TestContext, config: Partial<Config>, cases: (app: FastifyInstance) => Promise<Case[]>) {
  const app = await buildTestApp(t, { config });
  const api = await validatorFor(app);
  for (const item of await cases(app)) assertDocumented(api, item, await app.inject(item.request));
}

describe('every status and header the server answers is in its OpenAPI document', () => {
  test('supporting endpoints, including their 405s', async (t) => {
    await check(t, {}, async () => [
      { request: { method: 'GET', url: '/' }, status: 200 },
      { request: { method: 'PUT', url: '/' }, status: 405 },
      { request: { method: 'HEAD', url: '/' }, status: 405 },
      { request: { method: 'GET', url: '/api/ps' }, status: 200 },
      { request: { method: 'DELETE', url: '/api/ps' }, status: 405 },
      { request: { method: 'HEAD', url: '/api/status' }, status: 200 },
      { request: { method: 'GET', url: '/api/status' }, status: 405 },
      { request: { method: 'OPTIONS', url: '/api/options' }, status: 200 },
      { request: { method: 'POST', url: '/api/options' }, status: 405 },
      { request: { method: 'GET', url: '/api/redirect' }, status: 307 },
      { request: { method: 'POST', url: '/api/redirect' }, status: 405 },
      { request: { method: 'GET', url: '/metrics' }, status: 200 },
      { request: { method: 'POST', url: '/metrics' }, status: 405 },
      { request: { method: 'HEAD', url: '/metrics' }, status: 405 },
    ]);
  });

  test('GET /api/redirect with no books is a documented 404', async (t) => {
    const app = await buildTestApp(t, { store: new MemoryBookStore() });
    const api = await validatorFor(app);
    const item: Case = { request: { method: 'GET', url: '/api/redirect' }, status: 404 };
    assertDocumented(api, item, await app.inject(item.request));
  });

  test('the books routes through their success and error paths', async (t) => {
    const tooLarge = JSON.stringify({ ...NEW_BOOK, title: 'x'.repeat(1024 * 1024) });
    await check(t, {}, async () => [
      { request: { method: 'GET', url: '/api/v1/books?skip=1&limit=2' }, status: 200 },
      { request: { method: 'GET', url: '/api/v1/books?limit=0' }, status: 422 },
      { request: { method: 'PUT', url: '/api/v1/books' }, status: 405 },
      { request: { method: 'HEAD', url: '/api/v1/books' }, status: 405 },
      { request: { method: 'POST', url: '/api/v1/books', payload: NEW_BOOK }, status: 201 },
      { request: { method: 'POST', url: '/api/v1/books', payload: { title: '' } }, status: 422 },
      { request: { method: 'POST', url: '/api/v1/books', headers: JSON_BODY, payload: '{"title":' }, status: 422 },
      {
        request: { method: 'POST', url: '/api/v1/books', headers: { 'content-type': 'text/plain' }, payload: 'x' },
        status: 415,
      },
      { request: { method: 'POST', url: '/api/v1/books', headers: JSON_BODY, payload: tooLarge }, status: 413 },
      { request: { method: 'GET', url: '/api/v1/books/search?q=martin' }, status: 200 },
      { request: { method: 'GET', url: '/api/v1/books/search' }, status: 422 },
      { request: { method: 'POST', url: '/api/v1/books/search' }, status: 405 },
      { request: { method: 'GET', url: `/api/v1/books/${CLEAN_CODE}` }, status: 200 },
      { request: { method: 'GET', url: `/api/v1/books/${randomUUID()}` }, status: 404 },
      { request: { method: 'GET', url: '/api/v1/books/not-a-uuid' }, status: 422 },
      { request: { method: 'PUT', url: `/api/v1/books/${CLEAN_CODE}` }, status: 405 },
      { request: { method: 'HEAD', url: `/api/v1/books/${CLEAN_CODE}` }, status: 405 },
      { request: { method: 'PATCH', url: `/api/v1/books/${CLEAN_CODE}`, payload: { year: 2009 } }, status: 200 },
      { request: { method: 'PATCH', url: `/api/v1/books/${randomUUID()}`, payload: {} }, status: 404 },
      { request: { method: 'PATCH', url: `/api/v1/books/${CLEAN_CODE}`, payload: { year: null } }, status: 422 },
      {
        request: { method: 'PATCH', url: `/api/v1/books/${CLEAN_CODE}`, headers: { 'content-type': 'text/csv' } },
        status: 415,
      },
      {
        request: { method: 'PATCH', url: `/api/v1/books/${CLEAN_CODE}`, headers: JSON_BODY, payload: tooLarge },
        status: 413,
      },
      { request: { method: 'DELETE', url: `/api/v1/books/${CLEAN_CODE}` }, status: 200 },
      { request: { method: 'DELETE', url: `/api/v1/books/${CLEAN_CODE}` }, status: 404 },
    ]);
  });

  test('chaos mode: every forced status and both refusals of the header', async (t) => {
    const forced = (value: string, status: number, method: Case['request']['method'] = 'GET'): Case => ({
      request: { method, url: `/api/v1/books/${CLEAN_CODE}`, headers: { 'x-force-error': value } },
      status,
    });
    await check(t, { chaosHeadersEnabled: true }, async () => [
      forced('abc', 400),
      forced('418', 400),
      ...[400, 404, 409, 429, 500, 502, 503, 504].map((code) => forced(String(code), code, 'DELETE')),
      { request: { method: 'GET', url: '/api/v1/books', headers: { 'x-force-error': '503' } }, status: 503 },
    ]);
  });

  test('token login and the protected list: 200, 401, 403, 413, 422, 429', async (t) => {
    const config = await hs256Config(undefined, {
      loginThrottle: {
        maxFailuresPerUsername: 1,
        maxFailuresPerClient: 100,
        maxFailuresPerUsernameAllClients: 100,
        windowSeconds: 60,
      },
    });
    await check(t, config, async (app) => {
      const reader = await tokenFor(app, READER);
      const nobody = await tokenFor(app, NOBODY);
      const form = (fields: Record<string, string>) => ({
        method: 'POST' as const,
        url: '/token',
        headers: FORM,
        payload: loginForm(fields),
      });
      return [
        { request: form({ username: WRITER.username, password: WRITER.password }), status: 200 },
        { request: form({ username: WRITER.username, password: 'wrong' }), status: 401 },
        { request: form({ username: WRITER.username, password: 'wrong' }), status: 429 },
        { request: form({ username: READER.username }), status: 422 },
        { request: { method: 'POST', url: '/token', payload: { username: 'x', password: 'y' } }, status: 422 },
        { request: form({ username: 'x', password: 'y'.repeat(128 * 1024) }), status: 413 },
        { request: { method: 'GET', url: '/token' }, status: 405 },
        {
          request: { method: 'GET', url: '/api/v1/books', headers: { authorization: `Bearer ${reader}` } },
          status: 200,
        },
        {
          request: { method: 'GET', url: '/api/v1/books', headers: { authorization: 'Bearer nonsense' } },
          status: 401,
        },
        {
          request: { method: 'GET', url: '/api/v1/books', headers: { authorization: `Bearer ${nobody}` } },
          status: 403,
        },
      ];
    });
  });

  test('POST /token without JWT_SECRET_KEY is a documented 503', async (t) => {
    const config = await hs256Config();
    const auth = {
      ...(config.auth as Config['auth']),
      tokenSigning: { algorithm: 'HS256' as const, secret: undefined },
    };
    await check(t, { auth }, async () => [
      {
        request: { method: 'POST', url: '/token', headers: FORM, payload: loginForm({ username: 'a', password: 'b' }) },
        status: 503,
      },
    ]);
  });

  test('AUTH_REQUIRED: every books route documents and answers 401 without a token', async (t) => {
    const config = await hs256Config(undefined, { authRequired: true });
    await check(t, config, async () => [
      { request: { method: 'GET', url: '/api/v1/books' }, status: 401 },
      { request: { method: 'POST', url: '/api/v1/books', payload: NEW_BOOK }, status: 401 },
      { request: { method: 'GET', url: '/api/v1/books/search?q=a' }, status: 401 },
      { request: { method: 'GET', url: `/api/v1/books/${CLEAN_CODE}` }, status: 401 },
      { request: { method: 'PATCH', url: `/api/v1/books/${CLEAN_CODE}`, payload: {} }, status: 401 },
      { request: { method: 'DELETE', url: `/api/v1/books/${CLEAN_CODE}` }, status: 401 },
    ]);
  });
  test('DATABASE_URL with the database unreachable: readiness, books and login answer a documented 503', async (t) => {
    const database = {
      url: `postgres://books@127.0.0.1:${await closedPort()}/books`,
      poolSize: 1,
      statementTimeoutMs: 1000,
      waitTimeoutMs: 2000,
    };
    const config = { ...(await hs256Config()), database };
    await check(t, config, async () => [
      { request: { method: 'GET', url: '/api/ps' }, status: 503 },
      { request: { method: 'HEAD', url: '/api/status' }, status: 200 },
      { request: { method: 'GET', url: '/api/v1/books' }, status: 503 },
      { request: { method: 'GET', url: '/api/v1/books/search?q=a' }, status: 503 },
      { request: { method: 'POST', url: '/api/v1/books', payload: NEW_BOOK }, status: 503 },
      { request: { method: 'GET', url: `/api/v1/books/${CLEAN_CODE}` }, status: 503 },
      { request: { method: 'PATCH', url: `/api/v1/books/${CLEAN_CODE}`, payload: { year: 2009 } }, status: 503 },
      { request: { method: 'DELETE', url: `/api/v1/books/${CLEAN_CODE}` }, status: 503 },
      { request: { method: 'GET', url: '/api/redirect' }, status: 503 },
      {
        request: { method: 'POST', url: '/token', headers: FORM, payload: loginForm({ username: 'a', password: 'b' }) },
        status: 503,
      },
    ]);
  });

  test('POST /token with more logins waiting than the queue holds: a documented 503 with Retry-After', async (t) => {
    const config = await hs256Config(undefined, {
      loginThrottle: {
        maxFailuresPerUsername: 1_000,
        maxFailuresPerClient: 1_000,
        maxFailuresPerUsernameAllClients: 2_000,
        windowSeconds: 60,
      },
      passwordVerifications: { maxConcurrent: 1, maxQueued: 1 },
    });
    const app = await buildTestApp(t, { config });
    const api = await validatorFor(app);
    const request: Case['request'] = {
      method: 'POST',
      url: '/token',
      headers: FORM,
      payload: loginForm({ username: READER.username, password: READER.password }),
    };
    const responses = await Promise.all(Array.from({ length: 12 }, () => app.inject(request)));
    assert.ok(
      responses.some((response) => response.statusCode === 503),
      'some logins found the queue full',
    );
    for (const response of responses) {
      assert.equal(response.statusCode === 503, response.headers['retry-after'] !== undefined, 'Retry-After on 503');
      assertDocumented(api, { request, status: response.statusCode }, response);
    }
  });

  test('answers written before routing (400, 408, 417, 431), driven over raw sockets', BOUNDED, async (t) => {
    const connections = { ...defaultConfig().connections, headersTimeoutMs: 1000, requestTimeoutMs: 2000 };
    const { app, port } = await listeningApp(t, { config: { connections } });
    const api = await validatorFor(app);
    const document = JSON.parse((await app.inject({ url: '/openapi.json' })).body) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => ({ method: method.toUpperCase(), url: path.replace('{book_id}', CLEAN_CODE) })),
    );
    assert.ok(operations.length >= 13, 'every documented operation');
    const raw = async (
      request: { method: string; url: string },
      status: number,
      bytes: string,
      options: { bodyless?: boolean } = {},
    ) => {
      const [response, ...more] = await exchange(port, bytes, { headRequests: options.bodyless });
      assert.ok(response !== undefined, `${request.method} ${request.url}: an answer`);
      assert.equal(more.length, 0, 'one answer, then the connection closes');
      const item = { request: request as Case['request'], status };
      assertDocumented(
        api,
        item,
        { statusCode: response.status, headers: response.headers, body: response.body },
        { bodyless: options.bodyless === true },
      );
    };
    const head = ({ method, url }: { method: string; url: string }, headers = '') =>
      `${method} ${url} HTTP/1.1\r\nHost: localhost\r\n${headers}`;

    for (const operation of operations) {
      // 400: a header line Node cannot parse; the method is never read, so a HEAD gets the body too.
      await raw(operation, 400, `${head(operation, 'Bad Header\r\n')}\r\n`);
      // 431: headers over Node's limit.
      await raw(operation, 431, `${head(operation, `X-Big: ${'a'.repeat(20 * 1024)}\r\n`)}\r\n`);
      // 417: an Expect Node cannot meet, answered once the request head is read (no body for HEAD).
      await raw(operation, 417, `${head(operation, 'Expect: 200-ok\r\nContent-Length: 2\r\n')}\r\n{}`, {
        bodyless: operation.method === 'HEAD',
      });
    }
    // 400 from Fastify before routing: a path with broken percent-encoding.
    const badEncoding = { method: 'GET', url: '/api/v1/books/%zz' };
    await raw(badEncoding, 400, `${head(badEncoding)}\r\n`);
    // 400: body framing Node refuses (Content-Length beside chunked).
    const post = { method: 'POST', url: '/api/v1/books' };
    await raw(post, 400, `${head(post, 'Content-Length: 3\r\nTransfer-Encoding: chunked\r\n')}\r\n0\r\n\r\n`);
    // 400: an HTTP/1.1 request without Host.
    await raw({ method: 'GET', url: '/api/ps' }, 400, 'GET /api/ps HTTP/1.1\r\nConnection: close\r\n\r\n');
    // 408: a request head not finished within HEADERS_TIMEOUT_SECONDS.
    const slow = await openSocket(port);
    const received = readUntilClosed(slow);
    slow.write('GET /api/v1/books HTTP/1.1\r\nHost: local');
    const [timedOut] = parseResponses(await received);
    assert.ok(timedOut !== undefined, 'a 408 answer');
    const item: Case = { request: { method: 'GET', url: '/api/v1/books' }, status: 408 };
    assertDocumented(api, item, { statusCode: timedOut.status, headers: timedOut.headers, body: timedOut.body });
  });
});
