import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test, type TestContext } from 'node:test';
import type { InjectOptions } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { defaultConfig } from '../../src/config.js';
import {
  FORCEABLE_STATUS_CODES,
  NOT_AN_INTEGER_DETAIL,
  NOT_APPROVED_DETAIL,
  RETRY_AFTER_SECONDS,
} from '../../src/plugins/app/chaos.js';
import { buildTestApp, json } from '../helper.js';
import { exchange, listeningApp } from '../raw-http.js';
import { scrape, sumOf } from './metrics-scrape.js';

const CLEAN_CODE = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const NEW_BOOK = { title: 'Refactoring', author: 'Martin Fowler', year: 2018 };

/** One request to every books route. */
const BOOKS_REQUESTS: readonly InjectOptions[] = [
  { method: 'GET', url: '/api/v1/books' },
  { method: 'GET', url: '/api/v1/books/search?q=code' },
  { method: 'GET', url: `/api/v1/books/${CLEAN_CODE}` },
  { method: 'POST', url: '/api/v1/books', payload: NEW_BOOK },
  { method: 'PATCH', url: `/api/v1/books/${CLEAN_CODE}`, payload: { title: 'Dirty Code' } },
  { method: 'DELETE', url: `/api/v1/books/${CLEAN_CODE}` },
];

const label = (request: InjectOptions) =>
  `${request.method} ${typeof request.url === 'string' ? request.url : (request.url?.pathname ?? '')}`;

function withForce(request: InjectOptions, value: string | string[]): InjectOptions {
  return { ...request, headers: { ...request.headers, 'x-force-error': value } };
}

const chaosApp = (t: TestContext) => buildTestApp(t, { config: { chaosHeadersEnabled: true } });

/** The store as a client sees it: every book, in order. */
async function allBooks(app: Awaited<ReturnType<typeof chaosApp>>) {
  return json(await app.inject({ url: '/api/v1/books?limit=100' })).items;
}

describe('chaos mode on', () => {
  test('every approved code is forced on every books route, with the simulated error body', async (t) => {
    const app = await chaosApp(t);
    for (const request of BOOKS_REQUESTS) {
      for (const code of FORCEABLE_STATUS_CODES) {
        const response = await app.inject(withForce(request, String(code)));
        const where = `${label(request)} X-Force-Error: ${code}`;
        assert.equal(response.statusCode, code, where);
        assert.deepEqual(json(response), { detail: `Simulated error ${code}` }, where);
        assert.match(String(response.headers['content-type']), /^application\/json/, where);
        assert.ok(response.headers['x-request-id'], `${where}: X-Request-ID`);
      }
    }
  });

  test('429 and 503 carry Retry-After: 1, the other forced codes do not', async (t) => {
    const app = await chaosApp(t);
    assert.deepEqual(Object.keys(RETRY_AFTER_SECONDS).map(Number), [429, 503]);
    for (const code of FORCEABLE_STATUS_CODES) {
      const response = await app.inject(withForce({ method: 'GET', url: '/api/v1/books' }, String(code)));
      assert.equal(response.headers['retry-after'], code === 429 || code === 503 ? '1' : undefined, String(code));
    }
  });

  test('forced POST, PATCH and DELETE leave the store unchanged', async (t) => {
    const app = await chaosApp(t);
    const before = await allBooks(app);
    for (const request of BOOKS_REQUESTS.filter((r) => ['POST', 'PATCH', 'DELETE'].includes(r.method as string))) {
      for (const code of FORCEABLE_STATUS_CODES) {
        assert.equal((await app.inject(withForce(request, String(code)))).statusCode, code);
      }
    }
    assert.deepEqual(await allBooks(app), before);
    assert.equal(json(await app.inject({ url: `/api/v1/books/${CLEAN_CODE}` })).title, 'Clean Code');
  });

  test('rejected headers on POST, PATCH and DELETE leave the store unchanged as well', async (t) => {
    const app = await chaosApp(t);
    const before = await allBooks(app);
    for (const request of BOOKS_REQUESTS.filter((r) => ['POST', 'PATCH', 'DELETE'].includes(r.method as string))) {
      for (const value of ['abc', '418']) {
        assert.equal((await app.inject(withForce(request, value))).statusCode, 400, `${label(request)} ${value}`);
      }
    }
    assert.deepEqual(await allBooks(app), before);
  });

  test('the forced answer comes before request validation', async (t) => {
    const app = await chaosApp(t);
    const invalid: InjectOptions[] = [
      { method: 'GET', url: '/api/v1/books/not-a-uuid' },
      { method: 'GET', url: '/api/v1/books?limit=abc' },
      { method: 'POST', url: '/api/v1/books', payload: { title: '' } },
      { method: 'POST', url: '/api/v1/books', headers: { 'content-type': 'text/plain' }, payload: 'hello' },
      { method: 'PATCH', url: `/api/v1/books/${CLEAN_CODE}`, payload: { id: 'x' } },
    ];
    for (const request of invalid) {
      const response = await app.inject(withForce(request, '502'));
      assert.equal(response.statusCode, 502, label(request));
      assert.deepEqual(json(response), { detail: 'Simulated error 502' });
    }
  });

  test('a value that is not an integer is a 400 that says so', async (t) => {
    const app = await chaosApp(t);
    const values = [
      'abc',
      '503.0',
      '5e2',
      '0x1f7',
      '5__03',
      '_503',
      '503_',
      '+_503',
      '- 503',
      '\ufeff503',
      '',
      '   ',
      '503abc',
      '50 3',
      'Infinity',
      'NaN',
      '+-503',
      '503, 500',
    ];
    for (const value of values) {
      const response = await app.inject(withForce({ method: 'GET', url: '/api/v1/books' }, value));
      assert.equal(response.statusCode, 400, JSON.stringify(value));
      assert.deepEqual(json(response), { detail: NOT_AN_INTEGER_DETAIL }, JSON.stringify(value));
      assert.equal(response.headers['retry-after'], undefined);
    }
  });

  test('a repeated header is a list, not an integer', async (t) => {
    const app = await chaosApp(t);
    const response = await app.inject(withForce({ method: 'GET', url: '/api/v1/books' }, ['503', '503']));
    assert.equal(response.statusCode, 400);
    assert.deepEqual(json(response), { detail: NOT_AN_INTEGER_DETAIL });
  });

  test('an integer that is not an approved code is a 400 that says so', async (t) => {
    const app = await chaosApp(t);
    for (const value of [
      '418',
      '200',
      '201',
      '422',
      '0',
      '-503',
      '-0',
      '600',
      '5030',
      '99999999999999999999999',
      '5_030',
    ]) {
      const response = await app.inject(withForce({ method: 'GET', url: '/api/v1/books' }, value));
      assert.equal(response.statusCode, 400, value);
      assert.deepEqual(json(response), { detail: NOT_APPROVED_DETAIL }, value);
    }
  });

  test("a sign, leading zeros, surrounding whitespace and underscores are read as Python's int() reads them", async (t) => {
    const app = await chaosApp(t);
    for (const value of ['+503', '0503', ' 503', '503 ', '\t503\t', '5_03', '0_5_0_3', '\u00a0503\u00a0']) {
      const response = await app.inject(withForce({ method: 'GET', url: '/api/v1/books' }, value));
      assert.equal(response.statusCode, 503, JSON.stringify(value));
      assert.deepEqual(json(response), { detail: 'Simulated error 503' });
    }
  });

  test('over HTTP the header is Latin-1 bytes, as FastAPI reads it: digits other than ASCII are not an integer', async (t) => {
    const { port } = await listeningApp(t, { config: { chaosHeadersEnabled: true } });
    const answer = async (value: Buffer) => {
      const request = Buffer.concat([
        Buffer.from('GET /api/v1/books HTTP/1.1\r\nHost: books.test\r\nConnection: close\r\nX-Force-Error: ', 'latin1'),
        value,
        Buffer.from('\r\n\r\n', 'latin1'),
      ]);
      const [response] = await exchange(port, request);
      return { status: response!.status, body: JSON.parse(response!.body) as unknown };
    };
    // ٥٠٣ and ５０３ (Arabic-Indic and full-width 503) in UTF-8: read as Latin-1 they are no digits.
    for (const text of ['٥٠٣', '５０３']) {
      assert.deepEqual(
        await answer(Buffer.from(text, 'utf8')),
        { status: 400, body: { detail: NOT_AN_INTEGER_DETAIL } },
        text,
      );
    }
    // A no-break space is one Latin-1 byte, and whitespace to Python's int().
    assert.deepEqual(await answer(Buffer.from('\u00a0503', 'latin1')), {
      status: 503,
      body: { detail: 'Simulated error 503' },
    });
    assert.deepEqual(await answer(Buffer.from('+5_03', 'latin1')), {
      status: 503,
      body: { detail: 'Simulated error 503' },
    });
  });

  test('a books request without the header is served normally', async (t) => {
    const app = await chaosApp(t);
    const response = await app.inject({ url: '/api/v1/books' });
    assert.equal(response.statusCode, 200);
    assert.equal(json(response).total, 3);
  });

  test('monitoring, docs, metrics, token and unknown routes are never forced', async (t) => {
    const app = await chaosApp(t);
    const untouched: [InjectOptions, number][] = [
      [{ method: 'GET', url: '/' }, 200],
      [{ method: 'GET', url: '/api/ps' }, 200],
      [{ method: 'HEAD', url: '/api/status' }, 200],
      [{ method: 'OPTIONS', url: '/api/options' }, 200],
      [{ method: 'GET', url: '/api/redirect' }, 307],
      [{ method: 'GET', url: '/docs' }, 200],
      [{ method: 'GET', url: '/redoc' }, 200],
      [{ method: 'GET', url: '/openapi.json' }, 200],
      [{ method: 'GET', url: '/metrics' }, 200],
      // Token login is not configured in tests: its own 503, never a simulated error.
      [
        {
          method: 'POST',
          url: '/token',
          payload: 'username=a&password=b',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
        503,
      ],
      [{ method: 'GET', url: '/api/v1/nothing-here' }, 404],
      [{ method: 'PUT', url: '/api/v1/books' }, 405],
    ];
    for (const [request, status] of untouched) {
      for (const value of ['500', 'abc']) {
        const response = await app.inject(withForce(request, value));
        const where = `${label(request)} X-Force-Error: ${value}`;
        assert.equal(response.statusCode, status, where);
        for (const chaosBody of [{ detail: 'Simulated error 500' }, { detail: NOT_AN_INTEGER_DETAIL }]) {
          assert.notEqual(response.body, JSON.stringify(chaosBody), where);
        }
      }
    }
  });

  test('forced failures are counted by code; rejected headers are not', async (t) => {
    const app = await chaosApp(t);
    await app.inject(withForce({ method: 'GET', url: '/api/v1/books' }, '503'));
    await app.inject(withForce({ method: 'DELETE', url: `/api/v1/books/${CLEAN_CODE}` }, '503'));
    await app.inject(withForce({ method: 'POST', url: '/api/v1/books', payload: NEW_BOOK }, '409'));
    await app.inject(withForce({ method: 'GET', url: '/api/v1/books' }, 'abc'));
    await app.inject(withForce({ method: 'GET', url: '/api/v1/books' }, '418'));
    const samples = await scrape(app);
    assert.equal(sumOf(samples, 'chaos_forced_failures_total', { code: '503' }), 2);
    assert.equal(sumOf(samples, 'chaos_forced_failures_total', { code: '409' }), 1);
    assert.equal(sumOf(samples, 'chaos_forced_failures_total'), 3);
    const forcedDelete = { method: 'DELETE', route: '/api/v1/books/:book_id', status_code: '503' };
    assert.equal(sumOf(samples, 'http_requests_total', forcedDelete), 1);
  });

  test('a forced answer is written to the request log with its request id', async (t) => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line));
        done();
      },
    });
    const app = await buildApp({
      config: defaultConfig({ chaosHeadersEnabled: true }),
      logger: pino({ level: 'info' }, sink),
    });
    t.after(() => app.close());
    const response = await app.inject(
      withForce({ method: 'GET', url: '/api/v1/books', headers: { 'x-request-id': 'chaos-demo-1' } }, '504'),
    );
    assert.equal(response.headers['x-request-id'], 'chaos-demo-1');
    const logged = lines.find((line) => line.reqId === 'chaos-demo-1');
    assert.ok(logged, 'a request log line for the forced request');
    assert.equal(logged.status, 504);
  });
});

describe('chaos mode off', () => {
  test('the header is ignored on every books route, whatever its value', async (t) => {
    const normalStatus: Record<string, number> = { GET: 200, POST: 201, PATCH: 200, DELETE: 200 };
    for (const value of ['503', 'abc', '418']) {
      const app = await buildTestApp(t);
      for (const request of BOOKS_REQUESTS) {
        const response = await app.inject(withForce(request, value));
        assert.equal(response.statusCode, normalStatus[request.method as string], `${label(request)} ${value}`);
        assert.equal(response.headers['retry-after'], undefined);
      }
      // The writes really happened: one book created, the patched book then deleted.
      const books = await allBooks(app);
      assert.deepEqual(
        books.map((book: { title: string }) => book.title),
        ['The Pragmatic Programmer', 'Designing Data-Intensive Applications', 'Refactoring'],
        value,
      );
      assert.equal(sumOf(await scrape(app), 'chaos_forced_failures_total'), 0);
    }
  });

  test('/ and /api/ps report whether chaos mode and the traffic generator are on', async (t) => {
    for (const [chaosHeadersEnabled, trafficGeneratorEnabled] of [
      [false, false],
      [true, false],
      [false, true],
      [true, true],
    ] as const) {
      const app = await buildTestApp(t, { config: { chaosHeadersEnabled, trafficGeneratorEnabled } });
      for (const url of ['/', '/api/ps']) {
        const body = json(await app.inject({ url }));
        assert.equal(body.chaos_headers_enabled, chaosHeadersEnabled, url);
        assert.equal(body.traffic_generator_enabled, trafficGeneratorEnabled, url);
      }
    }
  });
});

describe('OpenAPI description of chaos mode', () => {
  test('every books operation documents X-Force-Error and each forced response, and no other operation does', async (t) => {
    const app = await buildTestApp(t);
    const document = json(await app.inject({ url: '/openapi.json' }));
    let booksOperations = 0;
    for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        const header = (operation.parameters ?? []).find((p: any) => p.in === 'header' && p.name === 'X-Force-Error');
        const where = `${method.toUpperCase()} ${path}`;
        if (!path.startsWith('/api/v1/books')) {
          assert.equal(header, undefined, where);
          continue;
        }
        booksOperations += 1;
        assert.ok(header, `${where} documents the header`);
        assert.equal(header.required, false);
        // Swagger UI pre-fills a parameter from its example or default; "Try it out" must not force a failure.
        for (const prefill of ['example', 'examples']) assert.equal(header[prefill], undefined, `${where} ${prefill}`);
        for (const prefill of ['example', 'examples', 'default']) {
          assert.equal(header.schema[prefill], undefined, `${where} schema ${prefill}`);
        }
        for (const code of FORCEABLE_STATUS_CODES) {
          assert.match(header.description, new RegExp(`\\b${code}\\b`), `${where} header lists ${code}`);
          const response = operation.responses[String(code)];
          assert.ok(response, `${where} documents ${code}`);
          assert.match(response.description, new RegExp(`Simulated error ${code}`), `${where} ${code}`);
          assert.equal(response.content['application/json'].schema.$ref, '#/components/schemas/HTTPError');
          assert.equal(
            response.headers?.['Retry-After'] !== undefined,
            code === 429 || code === 503,
            `${where} ${code} Retry-After`,
          );
        }
        assert.match(operation.responses['400'].description, new RegExp(NOT_AN_INTEGER_DETAIL));
        assert.match(operation.responses['400'].description, new RegExp(NOT_APPROVED_DETAIL));
      }
    }
    assert.equal(booksOperations, 6);
  });

  test('the documented responses of a route keep their own meaning beside the forced one', async (t) => {
    const app = await buildTestApp(t);
    const document = json(await app.inject({ url: '/openapi.json' }));
    const notFound = document.paths['/api/v1/books/{book_id}'].get.responses['404'].description;
    assert.match(notFound, /Not Found/);
    assert.match(notFound, /Simulated error 404/);
  });
});
