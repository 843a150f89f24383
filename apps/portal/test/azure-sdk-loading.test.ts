/**
 * The Azure SDK (@azure/identity, @azure/arm-storage) is loaded on the observer's first read of
 * Azure, never by a portal that observes no subscription. Each case starts the portal's server side
 * in a child process on a stand-in cluster and reads what its pages and API read, while module
 * hooks record every module Node resolves (test/fixtures/portal-reads.ts).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { armClientEnvironment } from '../kube-stand-in/index';
import { startTestCluster, type TestCluster } from './kubernetes-harness';

// Each case starts a child process that loads the portal's server modules: slow on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const run = promisify(execFile);
const portalDir = fileURLToPath(new URL('..', import.meta.url));
const AZURE_SDK = /\/node_modules\/(@azure\/(?:identity|arm-storage))\//;
let cluster: TestCluster;

/** Which packages of the Azure SDK the resolved modules belong to. */
const azureSdkPackages = (modules: string[]): string[] =>
  [...new Set(modules.flatMap((url) => AZURE_SDK.exec(url)?.[1] ?? []))].sort();

interface Reads {
  listStatus: number;
  oneStatus: number;
  items: number;
  cloud: { status: string };
}

/** The portal's reads in a child process with `extra` in its environment: what it answered and which modules it resolved. */
async function portalReads(name: string, extra: Record<string, string>): Promise<{ reads: Reads; modules: string[] }> {
  const logPath = join(cluster.directory, `${name}-modules.log`);
  const resultPath = join(cluster.directory, `${name}-reads.json`);
  // A portal on a cluster as deployed, without sign-in, and nothing of this machine's (no Azure variables leak in).
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'production',
    NEXT_RUNTIME: 'nodejs',
    PATH: process.env['PATH'] ?? '',
    HOME: cluster.directory,
    KUBECONFIG: cluster.kubeconfigPath,
    PORTAL_AUTH: 'none',
    PORTAL_LOG_LEVEL: 'error',
    MODULE_LOAD_LOG: logPath,
    READS_RESULT: resultPath,
    ...extra,
  };
  // The react-server condition is the one Next.js resolves server code with ('server-only' among it).
  await run(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'test/fixtures/portal-reads.ts'], {
    cwd: portalDir,
    env,
    timeout: 90_000,
  });
  return {
    reads: JSON.parse(readFileSync(resultPath, 'utf8')) as Reads,
    modules: readFileSync(logPath, 'utf8').split('\n').filter(Boolean),
  };
}

beforeAll(async () => {
  cluster = await startTestCluster();
  cluster.standIn.fillAccounts(3, 'stsdkload');
}, 60_000);

afterAll(async () => {
  await cluster?.dispose();
});

describe('loading of the Azure SDK', () => {
  it('a portal without PORTAL_AZURE_SUBSCRIPTION_ID serves its pages and API without loading it', async () => {
    const { reads, modules } = await portalReads('unconfigured', {});
    expect(reads).toMatchObject({ listStatus: 200, oneStatus: 200, cloud: { status: 'unconfigured' } });
    expect(reads.items).toBeGreaterThan(0);
    // The hooks saw the observer's module and the cluster client's package load...
    expect(modules.some((url) => url.endsWith('/src/server/backends/azure/arm-observer.ts'))).toBe(true);
    expect(modules.some((url) => url.includes('/node_modules/@kubernetes/client-node/'))).toBe(true);
    // ...and nothing of the Azure SDK.
    expect(azureSdkPackages(modules)).toEqual([]);
  });

  it('a portal with a subscription loads it for its first read of Azure', async () => {
    const { reads, modules } = await portalReads('observing', armClientEnvironment(cluster.standIn, cluster.caPath));
    expect(reads).toMatchObject({ listStatus: 200, oneStatus: 200, cloud: { status: 'observed' } });
    expect(azureSdkPackages(modules)).toEqual(['@azure/arm-storage', '@azure/identity']);
  });
});
