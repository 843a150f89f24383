import 'server-only';
import { loadConfig } from '../../runtime/config';
import { logger } from '../../runtime/logger';
import type { PlatformBackend } from '../../model/backend';
import { createUnconfiguredBackend } from '../mock/unconfigured-backend';
import { processClusterCache } from './cluster-cache';
import { createClusterClient } from './cluster-client';
import { ClusterNotConfiguredError, loadClusterConfig } from './cluster-config';
import { createKubernetesBackend } from './kubernetes-backend';

/**
 * The backend for a real cluster, found through the standard kubeconfig resolution. Without
 * one the portal still starts, and every platform call answers 503 saying what is missing.
 */
export function createClusterBackend(): PlatformBackend {
  try {
    const config = loadClusterConfig();
    const scope = loadConfig().accountScope;
    const client = createClusterClient(config, scope);
    // One cache per cluster, identity and scope; KUBECONFIG names the file a change of either comes from.
    const key = [
      process.env['KUBECONFIG'] ?? '',
      config.getCurrentCluster()?.server,
      config.getCurrentUser()?.name,
      scope.kind,
    ].join('|');
    return createKubernetesBackend(client, processClusterCache(key, client), scope);
  } catch (error) {
    if (error instanceof ClusterNotConfiguredError) {
      logger().error({ reason: error.message }, 'platform cluster not configured');
      return createUnconfiguredBackend(error.message);
    }
    throw error;
  }
}
