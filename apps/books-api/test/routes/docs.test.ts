import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { redocBundleFromPackage } from '../../src/routes/redoc-bundle.js';
import { buildTestApp, json } from '../helper.js';

const EXTERNAL_URL = /(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i;

test('GET /openapi.json is an OpenAPI 3.1 document describing every books and supporting route', async (t) => {
  const app = await buildTestApp(t);
  const response = await app.inject({ url: '/openapi.json' });
  assert.equal(response.statusCode, 200);
  const doc = json(response);
  assert.equal(doc.openapi, '3.1.0');
  assert.equal(doc.info.title, 'Books Service');
  const operations: [string, string][] = [
    ['/', 'get'],
    ['/api/ps', 'get'],
    ['/api/status', 'head'],
    ['/api/options', 'options'],
    ['/api/redirect', 'get'],
    ['/api/v1/books', 'get'],
    ['/api/v1/books', 'post'],
    ['/api/v1/books/search', 'get'],
    ['/api/v1/books/{book_id}', 'get'],
    ['/api/v1/books/{book_id}', 'patch'],
    ['/api/v1/books/{book_id}', 'delete'],
  ];
  for (const [path, method] of operations) assert.ok(doc.paths[path]?.[method], `${method} ${path} is documented`);
  for (const name of ['BookCreate', 'BookUpdate', 'BookResponse', 'BookPage', 'HTTPError', 'HTTPValidationError']) {
    assert.ok(doc.components.schemas[name], `${name} schema`);
  }
  assert.equal(doc.components.schemas.BookCreate.additionalProperties, false);
  assert.deepEqual(doc.components.schemas.BookCreate.required, ['title', 'author', 'year']);
  assert.equal(doc.components.schemas.BookUpdate.required, undefined);
});

test('GET /openapi.json marks only q as a required query parameter; skip and limit have defaults', async (t) => {
  const app = await buildTestApp(t);
  const doc = json(await app.inject({ url: '/openapi.json' }));
  const queryParameters = (path: string) =>
    Object.fromEntries(
      (
        doc.paths[path].get.parameters as {
          in: string;
          name: string;
          required?: boolean;
          schema: { default?: unknown };
        }[]
      )
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => [
          parameter.name,
          { required: parameter.required === true, default: parameter.schema.default },
        ]),
    );
  assert.deepEqual(queryParameters('/api/v1/books'), {
    skip: { required: false, default: 0 },
    limit: { required: false, default: 20 },
  });
  assert.deepEqual(queryParameters('/api/v1/books/search'), {
    q: { required: true, default: undefined },
    skip: { required: false, default: 0 },
    limit: { required: false, default: 20 },
  });
});

test('GET /openapi.json documents the error responses of each books route with shared schemas', async (t) => {
  const app = await buildTestApp(t);
  const doc = json(await app.inject({ url: '/openapi.json' }));
  const refOf = (response: { content?: Record<string, { schema: { $ref?: string } }> }) =>
    response.content?.['application/json']?.schema.$ref;
  const expected: [string, string, string[]][] = [
    ['/api/v1/books', 'get', ['422', '405']],
    ['/api/v1/books', 'post', ['201', '413', '415', '422', '405']],
    ['/api/v1/books/search', 'get', ['422', '405']],
    ['/api/v1/books/{book_id}', 'get', ['404', '422', '405']],
    ['/api/v1/books/{book_id}', 'patch', ['404', '413', '415', '422', '405']],
    ['/api/v1/books/{book_id}', 'delete', ['404', '422', '405']],
  ];
  for (const [path, method, statuses] of expected) {
    const responses = doc.paths[path][method].responses;
    for (const status of statuses) assert.ok(responses[status], `${method} ${path} documents ${status}`);
    for (const status of ['404', '405', '413', '415']) {
      if (responses[status])
        assert.equal(refOf(responses[status]), '#/components/schemas/HTTPError', `${method} ${path} ${status}`);
    }
    if (responses['422']) assert.equal(refOf(responses['422']), '#/components/schemas/HTTPValidationError');
  }
  const skip = doc.paths['/api/v1/books'].get.parameters.find((p: { name: string }) => p.name === 'skip');
  assert.equal(skip.in, 'query');
  const bookId = doc.paths['/api/v1/books/{book_id}'].get.parameters.find(
    (p: { name: string }) => p.name === 'book_id',
  );
  assert.equal(bookId.in, 'path');
  assert.equal(bookId.schema.format, 'uuid');
});

test('GET /docs serves Swagger UI from local assets only', async (t) => {
  const app = await buildTestApp(t);
  const page = await app.inject({ url: '/docs' });
  assert.equal(page.statusCode, 200);
  assert.match(String(page.headers['content-type']), /text\/html/);
  assert.doesNotMatch(page.body, EXTERNAL_URL);
  const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
  assert.ok(assets.length >= 3);
  for (const asset of assets) {
    const url = new URL(asset, 'http://local/docs/').pathname;
    const response = await app.inject({ url });
    assert.equal(response.statusCode, 200, url);
    if (url.endsWith('.js')) assert.doesNotMatch(response.body, /["'`]https?:\/\/(?:unpkg|cdn|fonts)\./, url);
  }
  const initializer = await app.inject({ url: '/docs/static/swagger-initializer.js' });
  assert.equal(initializer.statusCode, 200);
  assert.match(initializer.body, /openapi\.json/);
});

test('GET /redoc serves a ReDoc page whose bundle comes from this server', async (t) => {
  const app = await buildTestApp(t);
  const page = await app.inject({ url: '/redoc' });
  assert.equal(page.statusCode, 200);
  assert.match(String(page.headers['content-type']), /text\/html/);
  assert.doesNotMatch(page.body, EXTERNAL_URL);
  assert.match(page.body, /spec-url="\/openapi\.json"/);
  assert.match(page.body, /disable-telemetry="true"/, 'ReDoc sends no usage data to Redocly');
  const script = /<script type="module" src="([^"]+)"/.exec(page.body)?.[1];
  assert.equal(script, '/redoc/redoc.standalone.js');
  const bundle = await app.inject({ url: script });
  assert.equal(bundle.statusCode, 200);
  assert.match(String(bundle.headers['content-type']), /javascript/);
  assert.ok(bundle.body.length > 100_000);
  assert.doesNotMatch(bundle.body, /https:\/\/cdn\.redoc\.ly\//, 'the footer logos are not fetched from a CDN');
  const csp = String(page.headers['content-security-policy']);
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /img-src 'self' data:/);
});

test('npm run build writes the bundle /redoc serves beside the compiled server (redoc is only a devDependency)', async () => {
  const built = new URL('../../dist/redoc.standalone.js', import.meta.url);
  assert.ok(existsSync(built), 'npm run build writes dist/redoc.standalone.js: run it first');
  const bundle = await readFile(built, 'utf8');
  assert.equal(bundle, await redocBundleFromPackage());
  assert.ok(!bundle.includes('https://cdn.redoc.ly/'), 'the bundle fetches nothing from Redocly');
});
