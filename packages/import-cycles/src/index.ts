import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** The repository's root: apps/ and packages/ are below it. */
export const REPOSITORY = join(dirname(new URL(import.meta.url).pathname), '..', '..', '..');

/** Every app with a src/ folder and a tsconfig.json (apps/books-api, apps/portal, ...). */
export function appsWithSources(root = REPOSITORY): string[] {
  const apps = join(root, 'apps');
  return readdirSync(apps, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(apps, entry.name))
    .filter((app) => existsSync(join(app, 'src')) && existsSync(join(app, 'tsconfig.json')));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The import graph of an app's src/: for each source file, the files of src/ it imports (type-only
 * imports and re-exports included: a cycle of types is still two modules that cannot be read
 * apart), resolved with the app's own compiler options (its `paths`, such as the portal's `@/`).
 */
export function importGraph(app: string): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(app, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (config === undefined) throw new Error(`cannot read ${app}/tsconfig.json`);
  const src = join(app, 'src');
  const files = sourceFiles(src);
  const inSrc = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const imported = new Set<string>();
    for (const { fileName } of info.importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, config.options, ts.sys).resolvedModule;
      if (resolved !== undefined && inSrc.has(resolved.resolvedFileName)) imported.add(resolved.resolvedFileName);
    }
    graph.set(file, [...imported].sort());
  }
  return graph;
}

/** Every cycle's files (one strongly connected component of more than one file, or a file importing itself). */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/** Each app's cycles, as paths relative to the repository. */
export function cyclesInApps(root = REPOSITORY): { app: string; cycles: string[][] }[] {
  return appsWithSources(root).map((app) => ({
    app: relative(root, app),
    cycles: importCycles(importGraph(app)).map((cycle) => cycle.map((file) => relative(root, file))),
  }));
}

/**
 * Cycles that exist today and are being taken apart (issue 41's portal layering): each is listed
 * exactly as found, and the check fails when one of them is gone too, so this list only shrinks.
 * Never add to it.
 */
export const CYCLES_BEING_REMOVED: readonly (readonly string[])[] = [];

/** What the check reports: cycles not in CYCLES_BEING_REMOVED, and listed ones that no longer exist. */
export function importCycleProblems(root = REPOSITORY): string[] {
  const found = cyclesInApps(root).flatMap(({ cycles }) => cycles);
  const key = (cycle: readonly string[]) => cycle.join(' ');
  const listed = new Set(CYCLES_BEING_REMOVED.map(key));
  const present = new Set(found.map(key));
  return [
    ...found.filter((cycle) => !listed.has(key(cycle))).map((cycle) => `import cycle:\n  ${cycle.join('\n  ')}`),
    ...CYCLES_BEING_REMOVED.filter((cycle) => !present.has(key(cycle))).map(
      (cycle) =>
        `no longer a cycle, remove it from CYCLES_BEING_REMOVED (packages/import-cycles/src/index.ts):\n  ${cycle.join('\n  ')}`,
    ),
  ];
}
