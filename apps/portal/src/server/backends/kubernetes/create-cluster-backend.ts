import 'server-only';
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
    const client = createClusterClient(config);
    // One cache per cluster and identity; KUBECONFIG names the file a change of either comes from.
    const key = [
      process.env['KUBECONFIG'] ?? '',
      config.getCurrentCluster()?.server,
      config.getCurrentUser()?.name,
    ].join('|');
    return createKubernetesBackend(client, processClusterCache(key, client));
  } catch (error) {
    if (error instanceof ClusterNotConfiguredError) {
      logger().error({ reason: error.message }, 'platform cluster not configured');
      return createUnconfiguredBackend(error.message);
    }
    throw error;
  }
}
