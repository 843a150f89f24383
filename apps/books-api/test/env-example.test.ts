import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { loadConfig, type Env } from '../src/config.js';

/**
 * `.env.example` and the variable table of docs/configuration.md against the parser itself: the
 * set of variables is what loadConfig reads, found by handing it environments that record every
 * name looked up. Some variables are read only when another one selects them (the RS256 key files
 * with JWT_ALGORITHM=RS256), so the parser runs with no variable set, with each example value of
 * `.env.example` alone, and with all of them together.
 */

const ENV_EXAMPLE_PATH = 'apps/books-api/.env.example';
const ENV_EXAMPLE = new URL('../.env.example', import.meta.url);
const CONFIGURATION_DOC = new URL('../../../docs/configuration.md', import.meta.url);
const PARSER = 'loadConfig (src/config.ts)';
const TABLE_HEADING = '## Books API';

/** `NAME=value` or `# NAME=value` lines: the variable and its example value. */
function exampleValues(): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of readFileSync(ENV_EXAMPLE, 'utf8').split('\n')) {
    const match = /^(?:# ?)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!match) continue;
    assert.ok(!values.has(match[1]!), `${ENV_EXAMPLE_PATH} names ${match[1]} twice`);
    values.set(match[1]!, match[2]!);
  }
  return values;
}

/** The first column of the table under `## Books API` in docs/configuration.md. */
function documentedVariables(): Set<string> {
  const text = readFileSync(CONFIGURATION_DOC, 'utf8');
  const start = text.indexOf(`\n${TABLE_HEADING}\n`);
  assert.ok(start >= 0, `docs/configuration.md has a "${TABLE_HEADING}" section`);
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  return new Set([...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\|/gm)].map((match) => match[1]!));
}

/** Runs loadConfig on `values` and adds every name it looks up to `read`; a refusal is fine here. */
function recordReads(values: Record<string, string>, read: Set<string>): void {
  const env = new Proxy<Env>(values, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return typeof name === 'string' ? target[name] : undefined;
    },
  });
  try {
    loadConfig(env);
  } catch {
    // A combination of examples may be refused (RS256 without its files, say); the names read count.
  }
}

function variablesTheParserReads(examples: Map<string, string>): Set<string> {
  const read = new Set<string>();
  recordReads({}, read);
  for (const [name, value] of examples) recordReads({ [name]: value }, read);
  recordReads(Object.fromEntries(examples), read);
  return read;
}

const sorted = (names: Iterable<string>) => [...names].sort();

describe('configuration documents', () => {
  test('.env.example names every variable loadConfig reads, and no other', () => {
    const examples = exampleValues();
    const read = variablesTheParserReads(examples);
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
    assert.deepEqual(problems, [], problems.join('\n'));
  });

  test('the example values make a configuration the server accepts', () => {
    assert.doesNotThrow(() => loadConfig(Object.fromEntries(exampleValues())));
  });

  test(`docs/configuration.md's "${TABLE_HEADING}" table has one row per variable loadConfig reads`, () => {
    const read = variablesTheParserReads(exampleValues());
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
    assert.deepEqual(problems, [], problems.join('\n'));
  });
});
