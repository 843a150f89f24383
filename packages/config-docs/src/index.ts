import { readFileSync } from 'node:fs';

export type Env = Record<string, string | undefined>;

export interface ConfigurationDocuments {
  /** The app's `.env.example`: its repository path (for messages) and where to read it. */
  envExample: { path: string; url: URL };
  /** docs/configuration.md. */
  configurationDoc: URL;
  /** The heading of the app's section in docs/configuration.md, e.g. `## Books API`. */
  tableHeading: string;
  /** How messages name the parser, e.g. `loadConfig (src/config.ts)`. */
  parserName: string;
  /** The functions that read the app's configuration from an environment; a refusal is fine. */
  parsers: readonly ((env: Env) => unknown)[];
  /** Read by the parsers but set by the platform (NODE_ENV, HOME ...), not by whoever runs the app. */
  setByThePlatform?: readonly string[];
}

export interface ConfigurationDocumentProblems {
  /** What `.env.example` lacks or names in vain, one sentence each. */
  envExample: string[];
  /** What the docs table lacks or lists in vain, one sentence each. */
  configurationTable: string[];
}

/** `NAME=value` or `# NAME=value` lines of a `.env.example`: each variable and its example value. */
export function exampleValues(documents: Pick<ConfigurationDocuments, 'envExample'>): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of readFileSync(documents.envExample.url, 'utf8').split('\n')) {
    const match = /^(?:# ?)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!match) continue;
    const [, name, value] = match as unknown as [string, string, string];
    if (values.has(name)) throw new Error(`${documents.envExample.path} names ${name} twice`);
    values.set(name, value);
  }
  return values;
}

/** The first column of the table under the app's heading in docs/configuration.md. */
function documentedVariables(documents: ConfigurationDocuments): Set<string> {
  const text = readFileSync(documents.configurationDoc, 'utf8');
  const start = text.indexOf(`\n${documents.tableHeading}\n`);
  if (start < 0) throw new Error(`docs/configuration.md has no "${documents.tableHeading}" section`);
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  return new Set([...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\|/gm)].map((match) => match[1]!));
}

/** Runs every parser on `values` and adds each name looked up to `read`. */
function recordReads(parsers: ConfigurationDocuments['parsers'], values: Env, read: Set<string>): void {
  const env = new Proxy<Env>(values, {
    get(target, name) {
      if (typeof name !== 'string') return undefined;
      read.add(name);
      return target[name];
    },
  });
  for (const parse of parsers) {
    try {
      parse(env);
    } catch {
      // A combination of examples may be refused (RS256 without its key files, say); the names read count.
    }
  }
}

/** Every variable the parsers read, with no variable set, each example alone, and all together. */
export function variablesTheParsersRead(documents: ConfigurationDocuments): Set<string> {
  const examples = exampleValues(documents);
  const read = new Set<string>();
  recordReads(documents.parsers, {}, read);
  for (const [name, value] of examples) recordReads(documents.parsers, { [name]: value }, read);
  recordReads(documents.parsers, Object.fromEntries(examples), read);
  for (const name of documents.setByThePlatform ?? []) read.delete(name);
  return read;
}

const sorted = (names: Iterable<string>) => [...names].sort();

export function configurationDocumentProblems(documents: ConfigurationDocuments): ConfigurationDocumentProblems {
  const { envExample, tableHeading, parserName } = documents;
  const examples = exampleValues(documents);
  const documented = documentedVariables(documents);
  const read = variablesTheParsersRead(documents);
  return {
    envExample: [
      ...sorted([...read].filter((name) => !examples.has(name))).map(
        (name) =>
          `${parserName} reads ${name}: add a line "# ${name}=<example value>" to ${envExample.path} ` +
          `(with a comment saying what it is for), and a row to the "${tableHeading}" table of docs/configuration.md`,
      ),
      ...sorted([...examples.keys()].filter((name) => !read.has(name))).map(
        (name) =>
          `${envExample.path} names ${name}, which ${parserName} never reads (with the file's example values set, ` +
          'alone or together): remove the line, correct the name, or give the variable that selects it an example value',
      ),
    ],
    configurationTable: [
      ...sorted([...read].filter((name) => !documented.has(name))).map(
        (name) =>
          `add a row "| \`${name}\` | <default> | <meaning> |" to the "${tableHeading}" table of docs/configuration.md`,
      ),
      ...sorted([...documented].filter((name) => !read.has(name))).map(
        (name) => `the "${tableHeading}" table of docs/configuration.md lists ${name}, which ${parserName} never reads`,
      ),
    ],
  };
}
