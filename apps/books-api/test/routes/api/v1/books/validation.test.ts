import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildTestApp, json } from '../../../../helper.js';

const CLEAN_CODE = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const JSON_TYPE = { 'content-type': 'application/json' };

async function detail(app: FastifyInstance, options: InjectOptions) {
  const response = await app.inject(options);
  assert.equal(response.statusCode, 422, response.body);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  return json(response).detail as unknown[];
}

const post = (payload: unknown) => ({
  method: 'POST' as const,
  url: '/api/v1/books',
  headers: JSON_TYPE,
  payload: JSON.stringify(payload),
});

test('422 missing: an absent body field is reported with the whole body as input', async (t) => {
  const app = await buildTestApp(t);
  const body = { title: 'T', author: 'A' };
  assert.deepEqual(await detail(app, post(body)), [
    { type: 'missing', loc: ['body', 'year'], msg: 'Field required', input: body },
  ]);
});

test('422 missing: an absent required query parameter has input null', async (t) => {
  const app = await buildTestApp(t);
  assert.deepEqual(await detail(app, { url: '/api/v1/books/search' }), [
    { type: 'missing', loc: ['query', 'q'], msg: 'Field required', input: null },
  ]);
});

test('422 string_too_short and string_too_long carry min_length / max_length', async (t) => {
  const app = await buildTestApp(t);
  assert.deepEqual(await detail(app, post({ title: '', author: 'a'.repeat(101), year: 2000 })), [
    {
      type: 'string_too_short',
      loc: ['body', 'title'],
      msg: 'String should have at least 1 character',
      input: '',
      ctx: { min_length: 1 },
    },
    {
      type: 'string_too_long',
      loc: ['body', 'author'],
      msg: 'String should have at most 100 characters',
      input: 'a'.repeat(101),
      ctx: { max_length: 100 },
    },
  ]);
  const long = '📚'.repeat(201);
  assert.deepEqual(await detail(app, post({ title: long, author: 'A', year: 2000 })), [
    {
      type: 'string_too_long',
      loc: ['body', 'title'],
      msg: 'String should have at most 200 characters',
      input: long,
      ctx: { max_length: 200 },
    },
  ]);
});

test('422 string_type and int_type: body types are strict', async (t) => {
  const app = await buildTestApp(t);
  assert.deepEqual(await detail(app, post({ title: 5, author: ['A'], year: '2000' })), [
    { type: 'string_type', loc: ['body', 'title'], msg: 'Input should be a valid string', input: 5 },
    { type: 'string_type', loc: ['body', 'author'], msg: 'Input should be a valid string', input: ['A'] },
    { type: 'int_type', loc: ['body', 'year'], msg: 'Input should be a valid integer', input: '2000' },
  ]);
  assert.deepEqual(await detail(app, post({ title: 'T', author: 'A', year: 2000.5 })), [
    { type: 'int_type', loc: ['body', 'year'], msg: 'Input should be a valid integer', input: 2000.5 },
  ]);
  assert.deepEqual(await detail(app, post({ title: 'T', author: 'A', year: true })), [
    { type: 'int_type', loc: ['body', 'year'], msg: 'Input should be a valid integer', input: true },
  ]);
});

test('422 int_parsing: query text that is not an integer, input is the raw text', async (t) => {
  const app = await buildTestApp(t);
  assert.deepEqual(await detail(app, { url: '/api/v1/books?limit=abc&skip=1.5' }), [
    {
      type: 'int_parsing',
      loc: ['query', 'skip'],
      msg: 'Input should be a valid integer, unable to parse string as an integer',
      input: '1.5',
    },
    {
      type: 'int_parsing',
      loc: ['query', 'limit'],
      msg: 'Input should be a valid integer, unable to parse string as an integer',
      input: 'abc',
    },
  ]);
});

test('422 greater_than_equal and less_than_equal on the body and on the query', async (t) => {
  const app = await buildTestApp(t);
  assert.deepEqual(await detail(app, post({ title: 'T', author: 'A', year: 1899 })), [
    {
      type: 'greater_than_equal',
      loc: ['body', 'year'],
      msg: 'Input should be greater than or equal to 1900',
      input: 1899,
      ctx: { ge: 1900 },
    },
  ]);
  assert.deepEqual(await detail(app, post({ title: 'T', author: 'A', year: 2101 })), [
    {
      type: 'less_than_equal',
      loc: ['body', 'year'],
      msg: 'Input should be less than or equal to 2100',
      input: 2101,
      ctx: { le: 2100 },
    },
  ]);
  assert.deepEqual(await detail(app, { url: '/api/v1/books?skip=-1&limit=0' }), [
    {
      type: 'greater_than_equal',
      loc: ['query', 'skip'],
      msg: 'Input should be greater than or equal to 0',
      input: '-1',
      ctx: { ge: 0 },
    },
    {
      type: 'greater_than_equal',
      loc: ['query', 'limit'],
      msg: 'Input should be greater than or equal to 1',
      input: '0',
      ctx: { ge: 1 },
    },
  ]);
  assert.deepEqual(await detail(app, { url: '/api/v1/books/search?q=a&limit=101' }), [
    {
      type: 'less_than_equal',
      loc: ['query', 'limit'],
      msg: 'Input should be less than or equal to 100',
      input: '101',
      ctx: { le: 100 },
    },
  ]);
});

test('422 search q bounds: empty and over 100 characters', async (t) => {
  const app = await buildTestApp(t);
  assert.deepEqual(await detail(app, { url: '/api/v1/books/search?q=' }), [
    {
      type: 'string_too_short',
      loc: ['query', 'q'],
      msg: 'String should have at least 1 character',
      input: '',
      ctx: { min_length: 1 },
    },
  ]);
  const q = 'x'.repeat(101);
  assert.deepEqual(await detail(app, { url: `/api/v1/books/search?q=${q}&skip=-5` }), [
    {
      type: 'string_too_long',
      loc: ['query', 'q'],
      msg: 'String should have at most 100 characters',
      input: q,
      ctx: { max_length: 100 },
    },
    {
      type: 'greater_than_equal',
      loc: ['query', 'skip'],
      msg: 'Input should be greater than or equal to 0',
      input: '-5',
      ctx: { ge: 0 },
    },
  ]);
});

test('422 uuid_parsing: the reason is in msg and ctx.error, for GET, PATCH and DELETE', async (t) => {
  const app = await buildTestApp(t);
  const cases: [string, string][] = [
    [
      'not-a-uuid',
      'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `n` at 1',
    ],
    ['3fa85f64', 'invalid length: expected length 32 for simple format, found 8'],
    ['3fa85f64-5717-4562-b3fc', 'invalid group count: expected 5, found 4'],
    ['3fa85f64-5717-4562-b3fc-2c963f66afa', 'invalid group length in group 4: expected 12, found 11'],
    ['3fa85f645-717-4562-b3fc-2c963f66afa6', 'invalid group length in group 0: expected 8, found 9'],
    // However long, an id is validated like any other, as FastAPI does (no 414 from the router).
    ['a'.repeat(300), 'invalid length: expected length 32 for simple format, found 300'],
    [
      'x'.repeat(12_000),
      'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `x` at 1',
    ],
  ];
  for (const [id, reason] of cases) {
    for (const method of ['GET', 'DELETE'] as const) {
      assert.deepEqual(await detail(app, { method, url: `/api/v1/books/${id}` }), [
        {
          type: 'uuid_parsing',
          loc: ['path', 'book_id'],
          msg: `Input should be a valid UUID, ${reason}`,
          input: id,
          ctx: { error: reason },
        },
      ]);
    }
  }
});

test('422 model_attributes_type: a body that is not a JSON object', async (t) => {
  const app = await buildTestApp(t);
  for (const body of [[1, 2], 'text', 42, true]) {
    assert.deepEqual(await detail(app, post(body)), [
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: body,
      },
    ]);
  }
});

test('422 missing body: an empty or null JSON body on POST and PATCH', async (t) => {
  const app = await buildTestApp(t);
  const missing = [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }];
  for (const [method, url] of [
    ['POST', '/api/v1/books'],
    ['PATCH', `/api/v1/books/${CLEAN_CODE}`],
  ] as const) {
    assert.deepEqual(await detail(app, { method, url, headers: JSON_TYPE, payload: '' }), missing);
    assert.deepEqual(await detail(app, { method, url, headers: JSON_TYPE, payload: 'null' }), missing);
    assert.deepEqual(await detail(app, { method, url }), missing);
  }
});

test('422 extra_forbidden: id, created_at and unknown fields, after the model fields', async (t) => {
  const app = await buildTestApp(t);
  assert.deepEqual(
    await detail(app, post({ id: CLEAN_CODE, title: 'T', created_at: 'now', author: 'A', year: 2000, colour: 'red' })),
    [
      { type: 'extra_forbidden', loc: ['body', 'id'], msg: 'Extra inputs are not permitted', input: CLEAN_CODE },
      { type: 'extra_forbidden', loc: ['body', 'created_at'], msg: 'Extra inputs are not permitted', input: 'now' },
      { type: 'extra_forbidden', loc: ['body', 'colour'], msg: 'Extra inputs are not permitted', input: 'red' },
    ],
  );
});

test('422 extra_forbidden: __proto__ and constructor keys are ordinary unknown fields', async (t) => {
  const app = await buildTestApp(t);
  const text =
    '{"title":"T","author":"A","year":2000,"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}';
  const response = await app.inject({ method: 'POST', url: '/api/v1/books', headers: JSON_TYPE, payload: text });
  assert.equal(response.statusCode, 422);
  assert.deepEqual(json(response).detail, [
    {
      type: 'extra_forbidden',
      loc: ['body', '__proto__'],
      msg: 'Extra inputs are not permitted',
      input: { polluted: 1 },
    },
    {
      type: 'extra_forbidden',
      loc: ['body', 'constructor'],
      msg: 'Extra inputs are not permitted',
      input: { prototype: { polluted: 1 } },
    },
  ]);
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  assert.equal(json(await app.inject({ url: '/api/v1/books' })).total, 3);
});

test('422 every invalid field at once, in field order, one entry per field', async (t) => {
  const app = await buildTestApp(t);
  const body = { extra: 1, year: 1800, title: '' };
  assert.deepEqual(await detail(app, post(body)), [
    {
      type: 'string_too_short',
      loc: ['body', 'title'],
      msg: 'String should have at least 1 character',
      input: '',
      ctx: { min_length: 1 },
    },
    { type: 'missing', loc: ['body', 'author'], msg: 'Field required', input: body },
    {
      type: 'greater_than_equal',
      loc: ['body', 'year'],
      msg: 'Input should be greater than or equal to 1900',
      input: 1800,
      ctx: { ge: 1900 },
    },
    { type: 'extra_forbidden', loc: ['body', 'extra'], msg: 'Extra inputs are not permitted', input: 1 },
  ]);
});

test('422 errors of the path and the body are reported together, path first', async (t) => {
  const app = await buildTestApp(t);
  const issues = (await detail(app, {
    method: 'PATCH',
    url: '/api/v1/books/xyz',
    headers: JSON_TYPE,
    payload: '{"year":"x"}',
  })) as {
    loc: unknown[];
  }[];
  assert.deepEqual(
    issues.map((issue) => issue.loc),
    [
      ['path', 'book_id'],
      ['body', 'year'],
    ],
  );
});

test('422 json_invalid: the offset is in characters and the reason is worded as Python does', async (t) => {
  const app = await buildTestApp(t);
  const cases: [string, number, string][] = [
    ['{"title": "x",}', 14, 'Expecting property name enclosed in double quotes'],
    ['{"title": }', 10, 'Expecting value'],
    ['{"title" "x"}', 9, "Expecting ':' delimiter"],
    ['{"title": "x" "author": "y"}', 14, "Expecting ',' delimiter"],
    ['{"title": "x"} trailing', 15, 'Extra data'],
    ['{"title": "abc', 10, 'Unterminated string starting at'],
    ['   ', 3, 'Expecting value'],
    ['{"title": "📚📚📚", "year": 20 00}', 28, "Expecting ',' delimiter"],
    ["{'title': 'x'}", 1, 'Expecting property name enclosed in double quotes'],
    ['{"title": "a\\qb"}', 12, 'Invalid \\escape'],
    ['[1, 2,]', 6, 'Expecting value'],
    ['{"year": 01}', 10, "Expecting ',' delimiter"],
  ];
  for (const [text, offset, reason] of cases) {
    const issues = await detail(app, { method: 'POST', url: '/api/v1/books', headers: JSON_TYPE, payload: text });
    assert.deepEqual(
      issues,
      [{ type: 'json_invalid', loc: ['body', offset], msg: 'JSON decode error', input: {}, ctx: { error: reason } }],
      text,
    );
  }
});

test('a body that is not UTF-8 is a 400 and nothing is stored', async (t) => {
  const app = await buildTestApp(t);
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/books',
    headers: JSON_TYPE,
    payload: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
  });
  assert.equal(response.statusCode, 400);
  assert.deepEqual(json(response), { detail: 'There was an error parsing the body' });
  assert.equal(json(await app.inject({ url: '/api/v1/books' })).total, 3);
});
