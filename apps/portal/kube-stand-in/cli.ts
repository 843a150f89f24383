/**
 * Runs the stand-in as a process: `tsx kube-stand-in/cli.ts [--port N] [--arm-port N] [--kubeconfig PATH]`.
 * Environment: STAND_IN_PORT, STAND_IN_ARM_PORT, STAND_IN_TOKEN, STAND_IN_KUBECONFIG,
 * STAND_IN_READY_DELAY_MS, STAND_IN_DELETE_DELAY_MS, STAND_IN_SYNCED_DELAY_MS, STAND_IN_TEAM_NAMESPACES
 * (comma-separated; default webshop,payments,books: namespaces with namespaced resource groups). Prints one JSON line
 * once it listens (url, kubeconfig path, and the ARM stand-in's url, token, subscription and
 * managed-identity endpoint and header), so a parent process can wait for it and wire a portal to both.
 */
import { parseArgs } from 'node:util';
import { teamNamespacesFrom } from './namespaces.js';
import { startStandIn } from './server.js';

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    console.error(`${name} must be a non-negative integer, got "${value}"`);
    process.exit(2);
  }
  return parsed;
}

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    'arm-port': { type: 'string' },
    kubeconfig: { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
});

const standIn = await startStandIn({
  port: integer('--port / STAND_IN_PORT', values.port ?? process.env['STAND_IN_PORT']) ?? 6443,
  ...(process.env['STAND_IN_TOKEN'] ? { token: process.env['STAND_IN_TOKEN'] } : {}),
  teamNamespaces: teamNamespacesFrom(process.env['STAND_IN_TEAM_NAMESPACES']),
  arm: {
    port: integer('--arm-port / STAND_IN_ARM_PORT', values['arm-port'] ?? process.env['STAND_IN_ARM_PORT']) ?? 6444,
  },
  timing: Object.fromEntries(
    Object.entries({
      syncedDelayMs: integer('STAND_IN_SYNCED_DELAY_MS', process.env['STAND_IN_SYNCED_DELAY_MS']),
      readyDelayMs: integer('STAND_IN_READY_DELAY_MS', process.env['STAND_IN_READY_DELAY_MS']),
      deleteDelayMs: integer('STAND_IN_DELETE_DELAY_MS', process.env['STAND_IN_DELETE_DELAY_MS']),
    }).filter(([, v]) => v !== undefined),
  ),
  ...(values.quiet ? {} : { log: (line: string) => console.error(`[kube-stand-in] ${line}`) }),
});

const kubeconfigPath = values.kubeconfig ?? process.env['STAND_IN_KUBECONFIG'];
if (kubeconfigPath) standIn.writeKubeconfig(kubeconfigPath);
console.log(
  JSON.stringify({
    url: standIn.url,
    kubeconfig: kubeconfigPath ?? null,
    control: `${standIn.url}/__stand-in/state`,
    certificateAuthority: standIn.certificateAuthority,
    arm: {
      url: standIn.arm.url,
      token: standIn.arm.token,
      subscriptionId: standIn.arm.subscriptionId,
      identityEndpoint: standIn.arm.identityEndpoint,
      identityHeader: standIn.arm.identityHeader,
    },
  }),
);

const shutdown = (): void => {
  void standIn.close().then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
