import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { testPostgres } from './postgres.js';
import { measureRequestPath, type RanFile, type RequestKind } from './request-path/measure.js';

// The request path stays short, and docs/request-lifecycle.md names the files a GET by id runs
// through: both measured from the running server (test/request-path/measure.ts).

const DOC = readFileSync(fileURLToPath(new URL('../../../docs/request-lifecycle.md', import.meta.url)), 'utf8');

/** The most files whose code may run for one request of each kind. */
const MOST_FILES: Record<'memory' | 'postgres', Partial<Record<RequestKind, number>>> = {
  memory: { get: 15, list: 15, create: 18 },
  postgres: { get: 20 },
};

/** The files the document lists for a get in `store`, in its notation (API files under src/). */
function documentedFilesOfAGet(store: 'memory' | 'PostgreSQL'): string[] {
  const start = DOC.indexOf('<!-- lifecycle:files-of-a-get -->');
  const end = DOC.indexOf('<!-- /lifecycle:files-of-a-get -->');
  assert.ok(start !== -1 && end > start, 'docs/request-lifecycle.md has no files-of-a-get table');
  return DOC.slice(start, end)
    .split('\n')
    .filter((line) => line.startsWith('|') && !line.startsWith('| ---'))
    .slice(1)
    .map((line) => line.split('|').map((cell) => cell.trim().replace(/`/g, '')))
    .filter(([, kind]) => kind === 'both' || kind === store)
    .map(([, , file]) => file!);
}

/** A measured file in the document's notation: API files under src/, a package's source for its build. */
function asDocumented({ file }: RanFile): string {
  const api = /^apps\/books-api\/src\/(.*)$/.exec(file);
  if (api) return api[1]!;
  return file.replace(/^(packages\/[^/]+)\/dist\/(.*)\.js$/, '$1/src/$2.ts');
}

function assertShort(kind: RequestKind, files: readonly RanFile[], most: number | undefined): void {
  if (most === undefined) return;
  assert.ok(
    files.length <= most,
    `a ${kind} runs through ${files.length} files (at most ${most}):\n${files.map((f) => `  ${f.file}: ${f.functions.join(', ')}`).join('\n')}`,
  );
}

test('in memory a get, a list and a create each run through few files, and the document names those of the get', async () => {
  const measured = await measureRequestPath();
  for (const kind of ['get', 'list', 'create'] as const) assertShort(kind, measured[kind], MOST_FILES.memory[kind]);
  assert.deepEqual(measured.get.map(asDocumented).sort(), documentedFilesOfAGet('memory').sort());
});

test('on PostgreSQL a get runs through few files, and the document names them', async (t) => {
  const server = await testPostgres();
  const url = await server.createDatabase('books');
  t.after(() => server.dropDatabase(url));
  const measured = await measureRequestPath({ DATABASE_URL: url }, ['get']);
  assertShort('get', measured.get, MOST_FILES.postgres.get);
  assert.deepEqual(measured.get.map(asDocumented).sort(), documentedFilesOfAGet('PostgreSQL').sort());
});
