import 'server-only';
import { loadConfig } from '../config';
import type { PlatformBackend } from './backend';
import { createMockBackend } from './mock-backend';
import { createUnconfiguredBackend } from './unconfigured-backend';

let backend: PlatformBackend | undefined;

function createClusterBackend(): PlatformBackend {
  // The Kubernetes backend (src/server/kubernetes/) plugs in here.
  return createUnconfiguredBackend('platform cluster not configured');
}

/** The backend for this process: the mock in development mode, otherwise the cluster. */
export function getPlatformBackend(): PlatformBackend {
  backend ??= loadConfig().mockPlatform ? createMockBackend() : createClusterBackend();
  return backend;
}
