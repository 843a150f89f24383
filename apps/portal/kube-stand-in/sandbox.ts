/**
 * `npm run portal:sandbox`: the portal's production server against the Kubernetes stand-in, for a
 * local demo of the whole lifecycle without a cluster (none can run here), with the ARM stand-in on the
 * same simulated Azure. Builds the portal first when there is no production build. Environment:
 * PORTAL_PORT (default 3000), STAND_IN_PORT (default 6443), STAND_IN_ARM_PORT (default 6444),
 * STAND_IN_READY_DELAY_MS / STAND_IN_DELETE_DELAY_MS (how long "Azure" takes), STAND_IN_TEAM_NAMESPACES
 * (the Crossplane v2 team namespaces, default webshop,payments,books).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasProductionBuild, startPortalServer } from './portal-server.js';
import { armClientEnvironment } from './arm-client-environment.js';
import { teamNamespacesFrom } from './namespaces.js';
import { startStandIn } from './server.js';

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    console.error(`${name} must be a port number from 1 to 65535, got "${raw}"`);
    process.exit(2);
  }
  return value;
}

function delay(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`${name} must be a non-negative number of milliseconds, got "${raw}"`);
    process.exit(2);
  }
  return value;
}

const portalPort = port('PORTAL_PORT', 3000);
const standInPort = port('STAND_IN_PORT', 6443);
const armPort = port('STAND_IN_ARM_PORT', 6444);
const readyDelayMs = delay('STAND_IN_READY_DELAY_MS');
const deleteDelayMs = delay('STAND_IN_DELETE_DELAY_MS');

if (!hasProductionBuild()) {
  console.error('[sandbox] no production build yet: running npm run portal:build');
  const build = spawnSync('npm', ['run', 'build', '--workspace', 'apps/portal'], {
    stdio: 'inherit',
    cwd: new URL('../../..', import.meta.url),
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const standIn = await startStandIn({
  port: standInPort,
  arm: { port: armPort },
  teamNamespaces: teamNamespacesFrom(process.env['STAND_IN_TEAM_NAMESPACES']),
  timing: {
    ...(readyDelayMs === undefined ? {} : { readyDelayMs }),
    ...(deleteDelayMs === undefined ? {} : { deleteDelayMs }),
  },
});
const directory = mkdtempSync(join(tmpdir(), 'portal-sandbox-'));
const kubeconfigPath = join(directory, 'kubeconfig');
standIn.writeKubeconfig(kubeconfigPath);
// The control API is served over the same TLS; curl trusts the stand-in's authority from this file.
const caPath = join(directory, 'ca.crt');
writeFileSync(caPath, standIn.certificateAuthority);

// The sandbox is a local demo: without sign-in unless PORTAL_AUTH says otherwise (the banner says so).
const portalAuth = process.env.PORTAL_AUTH?.trim() || 'none';
const portal = await startPortalServer({
  kubeconfigPath,
  port: portalPort,
  echo: true,
  env: {
    PORTAL_AUTH: portalAuth,
    // Cloud observation against the ARM stand-in: the official SDK and DefaultAzureCredential, which
    // takes its token from the stand-in's managed-identity endpoint; Node trusts the stand-in's authority.
    ...armClientEnvironment(standIn, caPath),
    PORTAL_OBSERVATION_TTL_SECONDS: process.env.PORTAL_OBSERVATION_TTL_SECONDS ?? '10',
  },
}).catch(async (error: unknown) => {
  console.error(`[sandbox] ${error instanceof Error ? error.message : String(error)}`);
  await standIn.close();
  process.exit(1);
});

console.log(`
Portal sandbox: the portal's production server on a simulated cluster.
  Portal          ${portal.url.replace('127.0.0.1', 'localhost')}
  Sign-in         PORTAL_AUTH=${portalAuth}
  Kubernetes API  ${standIn.url}  (stand-in; kubeconfig ${kubeconfigPath})
  kubectl         KUBECONFIG=${kubeconfigPath} kubectl get accounts
                  KUBECONFIG=${kubeconfigPath} kubectl get accounts.storage.azure.m.upbound.io -A   (Crossplane v2)
  Azure (ARM)     ${standIn.arm.url}  (stand-in, subscription ${standIn.arm.subscriptionId}; token ${standIn.arm.token})
  Edit in Azure   curl --cacert ${caPath} -H 'Authorization: Bearer ${standIn.arm.token}' -H 'Content-Type: application/json' \\
                    -X PATCH '${standIn.arm.url}/subscriptions/${standIn.arm.subscriptionId}/resourceGroups/<group>/providers/Microsoft.Storage/storageAccounts/<account>?api-version=2023-05-01' \\
                    -d '{"properties":{"minimumTlsVersion":"TLS1_0"}}'
  ARM faults      curl --cacert ${caPath} -X PUT ${standIn.arm.url}/__arm-stand-in/faults -d '{"throttle":{"retryAfterSeconds":5}}'
  Lose the cluster  curl --cacert ${caPath} -X POST ${standIn.url}/__stand-in/reset
  Fault switches  curl --cacert ${caPath} -X PUT ${standIn.url}/__stand-in/faults -d '{"forbidden":{"verbs":["create"]}}'
                  curl --cacert ${caPath} -X PUT ${standIn.url}/__stand-in/faults -d '{"unreachable":"reset"}'
                  curl --cacert ${caPath} -X PUT ${standIn.url}/__stand-in/faults -d '{"conflictOnCreate":true}'
                  curl --cacert ${caPath} -X PUT ${standIn.url}/__stand-in/failures/<account> -d '{"message":"quota exceeded"}'
                  curl --cacert ${caPath} -X DELETE ${standIn.url}/__stand-in/faults
Press Ctrl+C to stop both.
`);

let stopping = false;
const stop = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  await portal.stop();
  await standIn.close();
  rmSync(directory, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
