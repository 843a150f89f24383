import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { configurationDocumentProblems, exampleValues, type Env } from '../src/index.js';

const folder = mkdtempSync(join(tmpdir(), 'config-docs-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** PORT always; KEY_FILE only when MODE=keys, and MODE=keys needs KEY_FILE; HOME always. */
function parse(env: Env) {
  const port = Number(env.PORT ?? 3000);
  const home = env.HOME ?? '/';
  if (env.MODE === 'keys' && !env.KEY_FILE) throw new Error('MODE=keys needs KEY_FILE');
  return { port, home };
}

function documents(envExample: string, doc: string) {
  const name = Math.random().toString(36).slice(2);
  writeFileSync(join(folder, `${name}.env`), envExample);
  writeFileSync(join(folder, `${name}.md`), doc);
  return {
    envExample: { path: 'app/.env.example', url: pathToFileURL(join(folder, `${name}.env`)) },
    configurationDoc: pathToFileURL(join(folder, `${name}.md`)),
    tableHeading: '## App',
    parserName: 'parse (config.ts)',
    parsers: [parse],
    setByThePlatform: ['HOME'],
  };
}

const table = (...names: string[]) =>
  ['# Configuration', '', '## App', '', '| Variable | Default | Meaning |', '| --- | --- | --- |']
    .concat(names.map((name) => `| \`${name}\` | | |`))
    .concat(['', '## Other', '', '| `ELSEWHERE` | | |', ''])
    .join('\n');

describe('configuration documents against the parser', () => {
  test('finds nothing when both documents name exactly what the parser reads, selected variables included', () => {
    const problems = configurationDocumentProblems(
      documents('PORT=3000\n# MODE=keys\n# KEY_FILE=/run/key.pem\n', table('PORT', 'MODE', 'KEY_FILE')),
    );
    assert.deepEqual(problems, { envExample: [], configurationTable: [] });
  });

  test('names a variable the parser reads and the documents lack, and one they name in vain', () => {
    const problems = configurationDocumentProblems(documents('PORT=3000\nPROT=1\n', table('PORT', 'ELSEWHERE')));
    assert.deepEqual(problems.envExample, [
      'parse (config.ts) reads MODE: add a line "# MODE=<example value>" to app/.env.example (with a comment saying what it is for), and a row to the "## App" table of docs/configuration.md',
      "app/.env.example names PROT, which parse (config.ts) never reads (with the file's example values set, alone or together): remove the line, correct the name, or give the variable that selects it an example value",
    ]);
    assert.deepEqual(problems.configurationTable, [
      'add a row "| `MODE` | <default> | <meaning> |" to the "## App" table of docs/configuration.md',
      'the "## App" table of docs/configuration.md lists ELSEWHERE, which parse (config.ts) never reads',
    ]);
  });

  test('a variable read only when another selects it counts once the example selects it', () => {
    const withoutSelection = configurationDocumentProblems(
      documents('PORT=3000\n# MODE=plain\n', table('PORT', 'MODE')),
    );
    assert.deepEqual(withoutSelection.envExample, []);
    const selected = configurationDocumentProblems(documents('PORT=3000\n# MODE=keys\n', table('PORT', 'MODE')));
    assert.match(selected.envExample.join('\n'), /reads KEY_FILE/);
  });

  test('refuses a .env.example that names a variable twice, and a document without the section', () => {
    assert.throws(() => exampleValues(documents('PORT=1\n# PORT=2\n', table('PORT'))), /names PORT twice/);
    assert.throws(
      () => configurationDocumentProblems(documents('PORT=1\n', '# Configuration\n\n## Elsewhere\n')),
      /no "## App" section/,
    );
  });
});
