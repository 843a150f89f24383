/**
 * Shared helpers for the Kubernetes tests and journeys: a stand-in cluster with fast reconciliation,
 * a real kubeconfig file pointing at it, and a way to wait for what reconciliation eventually does.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStandIn, type StandIn, type StandInOptions } from '../kube-stand-in/index';

export const FAST_RECONCILIATION = { syncedDelayMs: 20, readyDelayMs: 150, deleteDelayMs: 150, retryDelayMs: 100 };

export interface TestCluster {
  standIn: StandIn;
  /** A temporary folder of the cluster's own, removed by dispose(). */
  directory: string;
  kubeconfigPath: string;
  /** The stand-in's certificate authority as a PEM file (for NODE_EXTRA_CA_CERTS). */
  caPath: string;
  dispose(): Promise<void>;
}

export async function startTestCluster(options: StandInOptions = {}): Promise<TestCluster> {
  const standIn = await startStandIn({ timing: FAST_RECONCILIATION, ...options });
  const directory = mkdtempSync(join(tmpdir(), 'portal-kube-'));
  const kubeconfigPath = join(directory, 'kubeconfig');
  standIn.writeKubeconfig(kubeconfigPath);
  const caPath = join(directory, 'ca.crt');
  writeFileSync(caPath, standIn.certificateAuthority);
  return {
    standIn,
    directory,
    kubeconfigPath,
    caPath,
    async dispose() {
      await standIn.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Polls until `check` returns a value (not undefined), failing with the last observation. */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 10_000,
  intervalMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`Timed out waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
