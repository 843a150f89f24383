import 'server-only';
import { loadConfig } from '../runtime/config';
import type { PlatformBackend } from '../model/backend';
import { createClusterBackend } from './kubernetes/create-cluster-backend';
import { createMockBackend } from './mock/mock-backend';

let backend: PlatformBackend | undefined;

/** The backend for this process: the mock in development mode, otherwise the cluster. */
export function getPlatformBackend(): PlatformBackend {
  backend ??= loadConfig().mockPlatform ? createMockBackend() : createClusterBackend();
  return backend;
}
