import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph } from '../../../packages/import-cycles/src/index';

/**
 * The server's layers import only downward, in the order CONTRIBUTING.md gives, and neither
 * components nor shared code reach into the server. The graph is the one packages/import-cycles
 * reads (as TypeScript resolves it, type-only imports included), which also fails on any cycle.
 * backends/ and live/ share a layer: the cluster cache feeds the live stream, which reads the
 * cache's collection type.
 */
const SERVER_LAYERS: readonly (readonly string[])[] = [
  ['model'],
  ['runtime'],
  ['telemetry'],
  ['backends', 'live'],
  ['auth'],
  ['http'],
  ['services'],
];

const portal = new URL('..', import.meta.url).pathname;
const src = join(portal, 'src/');

/** Each module of src (tests aside), relative to src, with the modules it imports. */
function sourceGraph(): [string, string[]][] {
  const inSrc = (file: string) => file.slice(src.length);
  return [...importGraph(portal)]
    .filter(([file]) => !/\.test\.tsx?$/.test(file))
    .map(([file, targets]) => [inSrc(file), targets.map(inSrc)]);
}

const layerOf = (file: string): number => SERVER_LAYERS.findIndex((layer) => layer.includes(file.split('/')[1] ?? ''));

describe('the portal import graph', () => {
  const graph = sourceGraph();

  it('puts every server module in one of the layers', () => {
    expect(graph.length).toBeGreaterThan(100);
    const outside = graph.filter(([file]) => file.startsWith('server/') && layerOf(file) < 0).map(([file]) => file);
    expect(outside).toEqual([]);
  });

  it('lets each server layer import only its own layer and the layers below it', () => {
    const upward = graph
      .filter(([file]) => file.startsWith('server/'))
      .flatMap(([file, targets]) =>
        targets
          .filter((target) => target.startsWith('server/') && layerOf(target) > layerOf(file))
          .map((target) => `${file} → ${target}`),
      );
    expect(upward).toEqual([]);
  });

  it('keeps the server out of components and shared code, and components out of shared code', () => {
    const crossing = graph.flatMap(([file, targets]) =>
      targets
        .filter(
          (target) =>
            (/^(components|lib)\//.test(file) && /^(server|app)\//.test(target)) ||
            (file.startsWith('lib/') && target.startsWith('components/')),
        )
        .map((target) => `${file} → ${target}`),
    );
    expect(crossing).toEqual([]);
  });
});
