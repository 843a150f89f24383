/**
 * Real kubectl (the system's; .ci/run installs it) against the Kubernetes stand-in, for journeys
 * that edit the cluster outside the portal as a platform engineer would.
 */
import { execFile } from 'node:child_process';

const KUBECTL_TIMEOUT_MS = 60_000;

export interface Kubectl {
  /** Runs kubectl with these arguments; fails with kubectl's own error output when it exits non-zero. */
  (args: string[], stdin?: string): Promise<string>;
}

/** kubectl on this kubeconfig, with its discovery cache in `home` so runs stay independent. */
export function kubectlFor(kubeconfigPath: string, home: string): Kubectl {
  return (args, stdin) =>
    new Promise((resolve, reject) => {
      const child = execFile(
        'kubectl',
        args,
        { env: { ...process.env, HOME: home, KUBECONFIG: kubeconfigPath }, timeout: KUBECTL_TIMEOUT_MS },
        (error, stdout, stderr) => {
          if (error) reject(new Error(`kubectl ${args.join(' ')} failed: ${stderr || error.message}`));
          else resolve(stdout);
        },
      );
      child.stdin?.end(stdin ?? '');
    });
}

/**
 * What the platform engineer did: remove every annotation the portal wrote on the Account
 * (`kubectl annotate account <name> platform-portal/...-`), so nothing on the object says what was asked for.
 */
export async function stripPortalAnnotations(kubectl: Kubectl, name: string): Promise<string[]> {
  const object = JSON.parse(await kubectl(['get', 'account', name, '-o', 'json'])) as {
    metadata: { annotations?: Record<string, string> };
  };
  const keys = Object.keys(object.metadata.annotations ?? {}).filter((key) => key.startsWith('platform-portal/'));
  if (keys.length > 0) await kubectl(['annotate', 'account', name, ...keys.map((key) => `${key}-`)]);
  return keys;
}
