import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const serverDir = new URL('../src/server', import.meta.url).pathname;

function serverModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return serverModules(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('server modules', () => {
  it("every module under src/server begins with import 'server-only', so no client bundle can take it in", () => {
    const modules = serverModules(serverDir);
    expect(modules.length).toBeGreaterThan(50);
    const unguarded = modules
      .filter((path) => !readFileSync(path, 'utf8').startsWith("import 'server-only';\n"))
      .map((path) => relative(serverDir, path));
    expect(unguarded).toEqual([]);
  });
});
