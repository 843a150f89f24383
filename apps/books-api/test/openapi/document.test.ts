import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultConfig } from '../../src/config.js';
import { buildTestApp, json } from '../helper.js';

type Response = { description: string; headers?: Record<string, { $ref?: string }>; content?: unknown };
type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, Response | { $ref: string }>;
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { headers: Record<string, unknown>; responses: Record<string, Response> };
};

/** A response, or the shared response (components.responses) it references. */
function resolved(document: Document, response: Response | { $ref: string }): Response {
  if (!('$ref' in response)) return response;
  const shared = document.components.responses[response.$ref.replace('#/components/responses/', '')];
  assert.ok(shared, `${response.$ref} exists`);
  return shared;
}

const METHODS = ['get', 'post', 'patch', 'delete', 'head', 'options'];

function operationsOf(document: { paths: Record<string, Record<string, Operation>> }): [string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]): [string, Operation] => [`${method.toUpperCase()} ${path}`, operation]),
  );
}

test('every operation has the operationId FastAPI would generate for it', async (t) => {
  const app = await buildTestApp(t);
  const ids = Object.fromEntries(
    operationsOf(json(await app.inject({ url: '/openapi.json' }))).map(([where, o]) => [where, o.operationId]),
  );
  assert.deepEqual(ids, {
    'GET /metrics': 'metrics_metrics_get',
    'GET /': 'root__get',
    'POST /token': 'login_token_post',
    'GET /api/ps': 'health_api_ps_get',
    'HEAD /api/status': 'status_api_status_head',
    'OPTIONS /api/options': 'options_api_options_options',
    'GET /api/redirect': 'redirect_to_random_book_api_redirect_get',
    'GET /api/v1/books': 'list_books_api_v1_books_get',
    'POST /api/v1/books': 'create_book_api_v1_books_post',
    'GET /api/v1/books/search': 'search_books_api_v1_books_search_get',
    'GET /api/v1/books/{book_id}': 'get_book_api_v1_books__book_id__get',
    'PATCH /api/v1/books/{book_id}': 'update_book_api_v1_books__book_id__patch',
    'DELETE /api/v1/books/{book_id}': 'delete_book_api_v1_books__book_id__delete',
  });
});

test('security is declared per operation: none for public ones, the bearer scheme where a token is checked', async (t) => {
  const bearer = { OAuth2PasswordBearer: [] };
  const publicApp = await buildTestApp(t);
  for (const [where, operation] of operationsOf(json(await publicApp.inject({ url: '/openapi.json' })))) {
    const expected = where === 'GET /api/v1/books' ? [{}, bearer] : [];
    assert.deepEqual(operation.security, expected, where);
  }
  const guarded = await buildTestApp(t, { config: { auth: { ...defaultConfig().auth, authRequired: true } } });
  for (const [where, operation] of operationsOf(json(await guarded.inject({ url: '/openapi.json' })))) {
    // /api/redirect reveals book ids, so AUTH_REQUIRED guards it too.
    const expected = where.includes(' /api/v1/books') || where === 'GET /api/redirect' ? [bearer] : [];
    assert.deepEqual(operation.security, expected, where);
  }
});

test('responses declare the headers the server sends and describe every success', async (t) => {
  const app = await buildTestApp(t);
  const document = json<Document>(await app.inject({ url: '/openapi.json' }));
  const expectedByStatus: Record<string, string> = {
    '307': 'Location',
    '401': 'WWW-Authenticate',
    '405': 'Allow',
    '429': 'Retry-After',
  };
  for (const [where, operation] of operationsOf(document)) {
    for (const [status, reference] of Object.entries(operation.responses)) {
      const response = resolved(document, reference);
      const headers = response.headers ?? {};
      assert.equal(headers['X-Request-ID']?.$ref, '#/components/headers/X-Request-ID', `${where} ${status}`);
      const expected = expectedByStatus[status];
      if (expected !== undefined)
        assert.equal(headers[expected]?.$ref, `#/components/headers/${expected}`, `${where} ${status}`);
      if (status.startsWith('2')) assert.notEqual(response.description, 'Default Response', `${where} ${status}`);
    }
  }
  for (const name of ['X-Request-ID', 'Allow', 'Location', 'Retry-After', 'WWW-Authenticate']) {
    assert.ok(document.components.headers[name], name);
  }
});

const SHARED: Record<string, string> = {
  '400': 'BadRequest',
  '408': 'RequestTimeout',
  '417': 'ExpectationFailed',
  '431': 'RequestHeaderFieldsTooLarge',
};

test('every operation references the answers written before routing: 400, 408, 417 and 431', async (t) => {
  const app = await buildTestApp(t);
  const document = json<Document>(await app.inject({ url: '/openapi.json' }));
  for (const [where, operation] of operationsOf(document)) {
    const expected = ['400', '408', '417', '431'];
    for (const status of expected) {
      const response = operation.responses[status];
      assert.ok(response, `${where} documents ${status}`);
      // A 400 the route gives itself (X-Force-Error, a broken form) keeps its own entry, naming both causes.
      if (status === '400' && !('$ref' in response)) assert.match(response.description, /before routing/, where);
      // A HEAD answer has no body: the shared response, inline without its content.
      else if (where.startsWith('HEAD ')) {
        assert.ok(!('$ref' in response), `${where} ${status} is inline`);
        const { content, ...rest } = document.components.responses[SHARED[status]!]!;
        assert.ok(content);
        assert.deepEqual(response, rest, `${where} ${status}`);
      } else assert.ok('$ref' in response, `${where} ${status} is the shared response`);
    }
    assert.equal(operation.responses['414'], undefined, `${where}: no 414, a long parameter is validated`);
  }
  for (const response of Object.values(document.components.responses)) {
    assert.equal(response.headers?.['X-Request-ID']?.$ref, '#/components/headers/X-Request-ID');
    assert.deepEqual(response.content, {
      'application/json': { schema: { $ref: '#/components/schemas/HTTPError' } },
    });
  }
});

test('HEAD /api/status and the redirect have no response body; request bodies reference the shared models', async (t) => {
  const app = await buildTestApp(t);
  const document = json(await app.inject({ url: '/openapi.json' }));
  const statusHead = (document as Document).paths['/api/status']!.head!;
  for (const [status, response] of Object.entries(statusHead.responses)) {
    assert.equal(resolved(document as Document, response).content, undefined, `HEAD /api/status ${status}`);
  }
  assert.equal(document.paths['/api/redirect'].get.responses['307'].content, undefined);
  const bodyRef = (operation: Operation) => operation.requestBody?.content['application/json']?.schema.$ref;
  assert.equal(bodyRef(document.paths['/api/v1/books'].post), '#/components/schemas/BookCreate');
  assert.equal(bodyRef(document.paths['/api/v1/books/{book_id}'].patch), '#/components/schemas/BookUpdate');
  const bookId = document.paths['/api/v1/books/{book_id}'].get.parameters.find(
    (p: { name: string }) => p.name === 'book_id',
  );
  assert.equal(bookId.schema.format, 'uuid');
  assert.match(bookId.description, /urn:uuid:/);
});

test('the document names its servers, licence and contact', async (t) => {
  const app = await buildTestApp(t);
  const document = json(await app.inject({ url: '/openapi.json' }));
  assert.deepEqual(
    document.servers.map((server: { url: string }) => server.url),
    ['/'],
  );
  assert.ok(document.info.license.name);
  assert.ok(document.info.contact.name);
});
