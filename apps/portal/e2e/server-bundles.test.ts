/**
 * What the production build bundles into its server code. Next.js bundles each route handler and the
 * pages apart, and each bundle loads its own copy of every module it holds: a package bundled there is
 * loaded, compiled and kept once per route in use. The packages next.config.mjs names in
 * serverExternalPackages are left to Node, which loads each once per process. Read from the server
 * chunks' source maps, which name every file the bundler put in.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PORTAL_DIR } from './harness';

const SERVER_DIR = join(PORTAL_DIR, '.next', 'server');

/** Every source file some server chunk or route bundle of the build holds. */
function bundledSources(): Set<string> {
  const sources = new Set<string>();
  const maps = readdirSync(SERVER_DIR, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.js.map'),
  );
  for (const map of maps) {
    const parsed = JSON.parse(readFileSync(join(SERVER_DIR, map), 'utf8')) as {
      sources?: string[];
      sections?: { map: { sources?: string[] } }[];
    };
    for (const source of [...(parsed.sources ?? []), ...(parsed.sections ?? []).flatMap((s) => s.map.sources ?? [])]) {
      sources.add(source);
    }
  }
  return sources;
}

const { default: nextConfig } = (await import(join(PORTAL_DIR, 'next.config.mjs'))) as {
  default: { serverExternalPackages: string[] };
};

describe('the server bundles of the production build', () => {
  const sources = bundledSources();

  it('hold the portal’s own server code (the source maps are read)', () => {
    assert.ok(
      [...sources].some((source) => source.endsWith('src/server/backends/kubernetes/watched-collection.ts')),
      'no server source map names watched-collection.ts: has the build stopped writing source maps?',
    );
  });

  it('hold no copy of a package left to Node, so each is loaded once per process', () => {
    // The Kubernetes client, zod and yaml are among them for the memory a copy per route costs.
    for (const name of ['@kubernetes/client-node', 'zod', 'yaml']) {
      assert.ok(nextConfig.serverExternalPackages.includes(name), `${name} is not in serverExternalPackages`);
    }
    for (const name of nextConfig.serverExternalPackages) {
      const bundled = [...sources].filter((source) => source.includes(`node_modules/${name}/`));
      assert.deepEqual(bundled.slice(0, 3), [], `the build bundles ${name}`);
    }
  });
});
