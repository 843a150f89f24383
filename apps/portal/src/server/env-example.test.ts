import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from './config';
import { loadClusterConfig } from './kubernetes/cluster-config';

/**
 * `.env.example` and the variable table of docs/configuration.md against the parsers themselves:
 * the set of variables is what parseConfig and loadClusterConfig read, found by handing them
 * environments that record every name looked up. Some variables are read only when another one
 * selects them (the OIDC settings with PORTAL_AUTH=oidc), so the parsers run with no variable set,
 * with each example value of `.env.example` alone, and with all of them together.
 */

const ENV_EXAMPLE_PATH = 'apps/portal/.env.example';
const ENV_EXAMPLE = new URL('../../.env.example', import.meta.url);
const CONFIGURATION_DOC = new URL('../../../../docs/configuration.md', import.meta.url);
const PARSER = 'parseConfig (src/server/config.ts)';
const TABLE_HEADING = '## Portal';

/** Read by the parsers but set by the platform, not by whoever runs the portal. */
const SET_BY_THE_PLATFORM = new Set([
  'NODE_ENV', // next dev: development, next start: production
  'HOME', // where ~/.kube/config is looked for
  'KUBERNETES_SERVICE_HOST', // set by Kubernetes in every pod
]);

type Env = Record<string, string | undefined>;

/** `NAME=value` or `# NAME=value` lines: the variable and its example value. */
function exampleValues(): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of readFileSync(ENV_EXAMPLE, 'utf8').split('\n')) {
    const match = /^(?:# ?)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!match) continue;
    expect(values.has(match[1]!), `${ENV_EXAMPLE_PATH} names ${match[1]} twice`).toBe(false);
    values.set(match[1]!, match[2]!);
  }
  return values;
}

/** The first column of the table under `## Portal` in docs/configuration.md. */
function documentedVariables(): Set<string> {
  const text = readFileSync(CONFIGURATION_DOC, 'utf8');
  const start = text.indexOf(`\n${TABLE_HEADING}\n`);
  expect(start, `docs/configuration.md has a "${TABLE_HEADING}" section`).toBeGreaterThanOrEqual(0);
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  return new Set([...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\|/gm)].map((match) => match[1]!));
}

/** Runs the parsers on `values` and adds every name they look up to `read`; refusals are fine here. */
function recordReads(values: Env, read: Set<string>): void {
  const env = new Proxy<Env>(values, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return typeof name === 'string' ? target[name] : undefined;
    },
  });
  for (const parse of [() => parseConfig(env), () => loadClusterConfig(env)]) {
    try {
      parse();
    } catch {
      // A combination of examples may be refused, and no cluster is configured here; the names read count.
    }
  }
}

function variablesTheParsersRead(examples: Map<string, string>): Set<string> {
  const read = new Set<string>();
  recordReads({}, read);
  for (const [name, value] of examples) recordReads({ [name]: value }, read);
  recordReads(Object.fromEntries(examples), read);
  for (const name of SET_BY_THE_PLATFORM) read.delete(name);
  return read;
}

const sorted = (names: Iterable<string>) => [...names].sort();

describe('configuration documents', () => {
  it('.env.example names every variable the portal reads, and no other', () => {
    const examples = exampleValues();
    const read = variablesTheParsersRead(examples);
    const missing = sorted([...read].filter((name) => !examples.has(name)));
    const invented = sorted([...examples.keys()].filter((name) => !read.has(name)));
    const problems = [
      ...missing.map(
        (name) =>
          `${PARSER} reads ${name}: add a line "# ${name}=<example value>" to ${ENV_EXAMPLE_PATH} ` +
          `(with a comment saying what it is for), and a row to the "${TABLE_HEADING}" table of docs/configuration.md`,
      ),
      ...invented.map(
        (name) =>
          `${ENV_EXAMPLE_PATH} names ${name}, which ${PARSER} never reads (with the file's example values set, ` +
          'alone or together): remove the line, correct the name, or give the variable that selects it an example value',
      ),
    ];
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('the example values make a configuration the portal accepts', () => {
    expect(() => parseConfig(Object.fromEntries(exampleValues()))).not.toThrow();
  });

  it(`docs/configuration.md's "${TABLE_HEADING}" table has one row per variable the portal reads`, () => {
    const read = variablesTheParsersRead(exampleValues());
    const documented = documentedVariables();
    const missing = sorted([...read].filter((name) => !documented.has(name)));
    const invented = sorted([...documented].filter((name) => !read.has(name)));
    const problems = [
      ...missing.map(
        (name) =>
          `add a row "| \`${name}\` | <default> | <meaning> |" to the "${TABLE_HEADING}" table of docs/configuration.md`,
      ),
      ...invented.map(
        (name) => `the "${TABLE_HEADING}" table of docs/configuration.md lists ${name}, which ${PARSER} never reads`,
      ),
    ];
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
