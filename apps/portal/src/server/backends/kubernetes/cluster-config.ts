import 'server-only';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';

/** In-cluster credentials are mounted here by the kubelet. */
const SERVICE_ACCOUNT_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';

export class ClusterNotConfiguredError extends Error {
  override name = 'ClusterNotConfiguredError';
}

type Env = Record<string, string | undefined>;

/**
 * The standard resolution (KUBECONFIG, ~/.kube/config, in-cluster service account) through
 * KubeConfig.loadFromDefault(). That method silently falls back to http://localhost:8080 when it
 * finds nothing; we refuse instead, so the portal says "not configured" rather than failing later.
 */
export function loadClusterConfig(env: Env = process.env): KubeConfig {
  const kubeconfigEnv = env['KUBECONFIG']?.trim();
  const homeConfig = join(env['HOME'] ?? homedir(), '.kube', 'config');
  const inCluster = Boolean(env['KUBERNETES_SERVICE_HOST']) && existsSync(SERVICE_ACCOUNT_TOKEN);
  if (!kubeconfigEnv && !existsSync(homeConfig) && !inCluster) {
    throw new ClusterNotConfiguredError(
      'The platform cluster is not configured: set KUBECONFIG, provide ~/.kube/config, or run the portal in a cluster',
    );
  }
  const config = new KubeConfig();
  try {
    config.loadFromDefault();
  } catch (error) {
    // Only the first line of the parser's message: the lines after it quote the kubeconfig,
    // which holds credentials, and this message reaches pages and the log.
    const firstLine = (error instanceof Error ? error.message : String(error)).split('\n', 1)[0]?.trim();
    throw new ClusterNotConfiguredError(`The platform cluster configuration cannot be read: ${firstLine}`);
  }
  if (!config.getCurrentCluster()) {
    throw new ClusterNotConfiguredError(
      'The platform cluster is not configured: the kubeconfig has no current context with a cluster',
    );
  }
  return config;
}
