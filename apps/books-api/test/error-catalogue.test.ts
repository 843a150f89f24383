import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { defaultConfig } from '../src/config.js';
import { ERROR_CATALOGUE, type ErrorCode } from '../src/errors.js';

const ERROR_DOC = new URL('../../../docs/errors-and-limits.md', import.meta.url);
const UNKNOWN_BOOK = randomUUID();

interface DocumentedError {
  status: string;
  detail: string;
}

/** The rows of the error table in docs/errors-and-limits.md: | `BOOKS_ERR_X` | status | `detail` | */
async function documentedErrors(): Promise<Map<string, DocumentedError>> {
  const text = await readFile(ERROR_DOC, 'utf8');
  const rows = new Map<string, DocumentedError>();
  for (const match of text.matchAll(/^\| `(BOOKS_ERR_[A-Z0-9_]+)` +\| ([^|]+?) +\| `([^`]*)` +\|$/gm)) {
    rows.set(match[1]!, { status: match[2]!, detail: match[3]! });
  }
  return rows;
}

describe('error catalogue', () => {
  test('the error table of docs/errors-and-limits.md documents every code with its status and detail', async () => {
    const documented = await documentedErrors();
    for (const [code, { status, detail }] of Object.entries(ERROR_CATALOGUE)) {
      assert.deepEqual(
        documented.get(code),
        { status: String(status), detail },
        `${code} in the error table of docs/errors-and-limits.md`,
      );
    }
  });

  test('the error table of docs/errors-and-limits.md lists no code the catalogue does not have', async () => {
    const documented = await documentedErrors();
    assert.ok(documented.size > 0, 'docs/errors-and-limits.md has an error table');
    for (const code of documented.keys()) assert.ok(code in ERROR_CATALOGUE, `${code} is in src/errors.ts`);
  });

  test("an error answer keeps the contract's body and carries its code in the request's log line", async (t) => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line));
        done();
      },
    });
    const app = await buildApp({ config: defaultConfig(), logger: pino({ level: 'info' }, sink) });
    t.after(() => app.close());

    const cases: { url: string; method: 'GET' | 'PUT'; status: number; body: unknown; code: ErrorCode }[] = [
      {
        method: 'GET',
        url: `/api/v1/books/${UNKNOWN_BOOK}`,
        status: 404,
        body: { detail: 'Book not found' },
        code: 'BOOKS_ERR_BOOK_NOT_FOUND',
      },
      { method: 'GET', url: '/nowhere', status: 404, body: { detail: 'Not Found' }, code: 'BOOKS_ERR_NOT_FOUND' },
      {
        method: 'PUT',
        url: '/api/v1/books',
        status: 405,
        body: { detail: 'Method Not Allowed' },
        code: 'BOOKS_ERR_METHOD_NOT_ALLOWED',
      },
    ];
    for (const [index, expected] of cases.entries()) {
      const requestId = `catalogue-${index}`;
      const response = await app.inject({
        method: expected.method,
        url: expected.url,
        headers: { 'x-request-id': requestId },
      });
      assert.equal(response.statusCode, expected.status);
      assert.deepEqual(JSON.parse(response.body), expected.body, 'the body has no code');
      const logged = lines.find((line) => line.reqId === requestId && 'status' in line);
      assert.equal(logged?.errorCode, expected.code, `${expected.method} ${expected.url} logs its code`);
    }

    const ok = await app.inject({ method: 'GET', url: '/api/v1/books', headers: { 'x-request-id': 'catalogue-ok' } });
    assert.equal(ok.statusCode, 200);
    const logged = lines.find((line) => line.reqId === 'catalogue-ok' && 'status' in line);
    assert.ok(logged, 'a log line for the successful request');
    assert.equal('errorCode' in logged, false, 'a success has no error code');
  });
});
