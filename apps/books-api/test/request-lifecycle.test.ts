import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { defaultConfig, type Config } from '../src/config.js';

const DOC = readFileSync(fileURLToPath(new URL('../../../docs/request-lifecycle.md', import.meta.url)), 'utf8');
const SRC = fileURLToPath(new URL('../src', import.meta.url));

/** The rows of the table between `<!-- lifecycle:NAME -->` and its closing comment, as cells without backticks. */
function documented(name: string): string[][] {
  const start = DOC.indexOf(`<!-- lifecycle:${name} -->`);
  const end = DOC.indexOf(`<!-- /lifecycle:${name} -->`);
  assert.ok(start !== -1 && end > start, `docs/request-lifecycle.md has no ${name} table`);
  return DOC.slice(start, end)
    .split('\n')
    .filter((line) => line.startsWith('|') && !line.startsWith('| ---'))
    .slice(1)
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/`/g, '')),
    );
}

/** Every route's hooks as the app reports them: [hook, function names in order] per route and hook. */
async function reportedHooks(config: Partial<Config> = {}): Promise<[string, string[]][]> {
  const app = await buildApp({ config: defaultConfig(config) });
  try {
    const printed = app.printRoutes({ includeHooks: true, commonPrefix: false });
    return [...printed.matchAll(/• \((\w+)\) (\[.*\])/g)].map(([, hook, names]) => [
      hook!,
      (JSON.parse(names!) as string[]).map((name) => name.replace(/\(\)$/, '')),
    ]);
  } finally {
    await app.close();
  }
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

const sources = sourceFiles(SRC).map((file) => readFileSync(file, 'utf8'));

test('docs/request-lifecycle.md lists the hooks every route runs, in their order', async () => {
  const every = documented('hooks-of-every-route');
  const reported = await reportedHooks();
  assert.ok(reported.length > 0);
  for (const hook of new Set(every.map(([kind]) => kind!))) {
    const expected = every.filter(([kind]) => kind === hook).map(([, name]) => name!);
    for (const [kind, names] of reported.filter(([kind]) => kind === hook)) {
      assert.deepEqual(names.slice(0, expected.length), expected, `${kind} hooks of a route`);
    }
  }
});

test('docs/request-lifecycle.md names every hook a route runs, chaos mode included, and no other', async () => {
  const documentedHooks = [...documented('hooks-of-every-route'), ...documented('hooks-of-some-routes')].map(
    ([kind, name]) => `${kind} ${name}`,
  );
  const reported = [...(await reportedHooks()), ...(await reportedHooks({ chaosHeadersEnabled: true }))].flatMap(
    ([kind, names]) => names.map((name) => `${kind} ${name}`),
  );
  assert.deepEqual([...new Set(reported)].sort(), [...new Set(documentedHooks)].sort());
});

test('docs/request-lifecycle.md names every route rewriter (onRoute hook) and completion listener in the code', () => {
  const inCode = (pattern: RegExp) =>
    sources
      .flatMap((text) => [...text.matchAll(pattern)].map((match) => (match[1] ?? match[2])!.replace(/^.*\./, '')))
      .sort();
  assert.deepEqual(
    inCode(/addHook\('onRoute', (?:function (\w+)|([\w.]+)\))/g),
    documented('route-rewriters')
      .map(([name]) => name!)
      .sort(),
  );
  assert.deepEqual(
    inCode(/onCompleted\((?:function (\w+)|([\w.]+))\)/g),
    documented('completion-listeners')
      .map(([name]) => name!)
      .sort(),
  );
});
