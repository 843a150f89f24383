import { describe, expect, it } from 'vitest';
import { configurationDocumentProblems, exampleValues } from '@books/config-docs';
import { parseConfig } from './config';
import { loadClusterConfig } from '../backends/kubernetes/cluster-config';

/** `.env.example` and the "Portal" table of docs/configuration.md against the parsers themselves. */
const documents = {
  envExample: { path: 'apps/portal/.env.example', url: new URL('../../../.env.example', import.meta.url) },
  configurationDoc: new URL('../../../../../docs/configuration.md', import.meta.url),
  tableHeading: '## Portal',
  parserName: 'parseConfig (src/server/runtime/config.ts)',
  parsers: [parseConfig, loadClusterConfig],
  setByThePlatform: [
    'NODE_ENV', // next dev: development, next start: production
    'HOME', // where ~/.kube/config is looked for
    'KUBERNETES_SERVICE_HOST', // set by Kubernetes in every pod
  ],
};

describe('configuration documents', () => {
  it('.env.example names every variable the portal reads, and no other', () => {
    const { envExample } = configurationDocumentProblems(documents);
    expect(envExample, envExample.join('\n')).toEqual([]);
  });

  it('the example values make a configuration the portal accepts', () => {
    expect(() => parseConfig(Object.fromEntries(exampleValues(documents)))).not.toThrow();
  });

  it(`docs/configuration.md's "${documents.tableHeading}" table has one row per variable the portal reads`, () => {
    const { configurationTable } = configurationDocumentProblems(documents);
    expect(configurationTable, configurationTable.join('\n')).toEqual([]);
  });
});
