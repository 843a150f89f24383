/**
 * The portal's server runs with the V8 heap node-options.env states, wherever it starts: the image and
 * `npm start` give Node the file with --env-file, the launcher of the tests and benchmarks puts its
 * flags on the command line. Without them Node sizes the heap from the host's memory (4 GB and a young
 * generation of 128 MB on a large machine), and the server's resident size follows. The image's CMD is
 * checked in kubernetes-shipped-defaults.test.ts.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseEnv, promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { serverNodeOptions } from '../kube-stand-in/portal-server';

const run = promisify(execFile);
const portalDir = fileURLToPath(new URL('..', import.meta.url));
const MiB = 2 ** 20;

const fileOptions = parseEnv(readFileSync(`${portalDir}node-options.env`, 'utf8'))['NODE_OPTIONS'] ?? '';
const flag = (name: string): number => Number(new RegExp(`--${name}=(\\d+)`).exec(fileOptions)?.[1]);

/** The heap limit V8 gives a Node process started with these arguments and this environment. */
async function heapLimit(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const probe = 'process.stdout.write(String(require("node:v8").getHeapStatistics().heap_size_limit))';
  const { stdout } = await run(process.execPath, [...args, '-e', probe], { cwd: portalDir, env });
  return Number(stdout);
}

/** The old generation the file allows, and at most the young generation's semi-spaces on top (two, and room to promote). */
function expectFileHeap(limit: number): void {
  expect(limit).toBeGreaterThanOrEqual(flag('max-old-space-size') * MiB);
  expect(limit).toBeLessThanOrEqual((flag('max-old-space-size') + 4 * flag('max-semi-space-size')) * MiB);
}

const withoutNodeOptions = (): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  return env;
};

describe('the server heap', () => {
  it('node-options.env sizes the old and the young generation', () => {
    expect(flag('max-old-space-size')).toBeGreaterThan(0);
    expect(flag('max-semi-space-size')).toBeGreaterThan(0);
  });

  it('is what Node gives a process started with --env-file=node-options.env (the image, npm start)', async () => {
    expectFileHeap(await heapLimit(['--env-file=node-options.env'], withoutNodeOptions()));
  });

  it("is what the launcher's server gets, also when the caller's NODE_OPTIONS asks for a larger heap", async () => {
    const env = { ...withoutNodeOptions(), NODE_OPTIONS: '--max-old-space-size=4096 --max-semi-space-size=64' };
    expectFileHeap(await heapLimit(serverNodeOptions(), env));
  });

  it('npm start runs the server with node-options.env', () => {
    const { scripts } = JSON.parse(readFileSync(`${portalDir}package.json`, 'utf8')) as { scripts: { start: string } };
    expect(scripts.start).toMatch(/ node --env-file=node-options\.env \S*next\/dist\/bin\/next start /);
  });
});
