import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { buildTestApp, json } from '../helper.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

test('GET / answers the service metadata with the docs URLs and the switches', async (t) => {
  const app = await buildTestApp(t);
  const response = await app.inject({ url: '/' });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(json(response), {
    name: 'Books Service',
    version,
    docs_url: '/docs',
    redoc_url: '/redoc',
    openapi_url: '/openapi.json',
    traffic_generator_enabled: false,
    chaos_headers_enabled: false,
  });
});
