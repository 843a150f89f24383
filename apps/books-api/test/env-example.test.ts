import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { configurationDocumentProblems, exampleValues } from '@books/config-docs';
import { loadConfig } from '../src/config.js';

/** `.env.example` and the "Books API" table of docs/configuration.md against loadConfig itself. */
const documents = {
  envExample: { path: 'apps/books-api/.env.example', url: new URL('../.env.example', import.meta.url) },
  configurationDoc: new URL('../../../docs/configuration.md', import.meta.url),
  tableHeading: '## Books API',
  parserName: 'loadConfig (src/config.ts)',
  parsers: [loadConfig],
};

describe('configuration documents', () => {
  test('.env.example names every variable loadConfig reads, and no other', () => {
    const { envExample } = configurationDocumentProblems(documents);
    assert.deepEqual(envExample, [], envExample.join('\n'));
  });

  test('the example values make a configuration the server accepts', () => {
    assert.doesNotThrow(() => loadConfig(Object.fromEntries(exampleValues(documents))));
  });

  test(`docs/configuration.md's "${documents.tableHeading}" table has one row per variable loadConfig reads`, () => {
    const { configurationTable } = configurationDocumentProblems(documents);
    assert.deepEqual(configurationTable, [], configurationTable.join('\n'));
  });
});
