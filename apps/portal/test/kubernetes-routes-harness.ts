/**
 * The platform API's route handlers against one Kubernetes API stand-in per test file, reached
 * through a real kubeconfig and @kubernetes/client-node, and the requests a signed-in admin sends
 * them (proxy mode).
 */
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import type { StandIn } from '../kube-stand-in/index';
import { startTestCluster, type TestCluster } from './kubernetes-harness';
import { TEST_PROXY_SECRET, throughProxy } from './proxy-sign-in';

const ORIGIN = 'http://portal.test';

/**
 * Starts a stand-in before the file's tests and stops it after them; each test runs in proxy mode
 * against it, and its faults and injected failures are cleared after each. The answer's standIn is
 * that stand-in once beforeAll has started it.
 */
export function clusterForRouteTests(): { readonly standIn: StandIn } {
  let cluster: TestCluster | undefined;
  const started = (): TestCluster => {
    if (!cluster) throw new Error('the test cluster is read before beforeAll started it');
    return cluster;
  };

  beforeAll(async () => {
    cluster = await startTestCluster();
  });

  afterAll(async () => {
    await cluster?.dispose();
  });

  beforeEach(() => {
    vi.stubEnv('PORTAL_MOCK_PLATFORM', 'false');
    vi.stubEnv('KUBECONFIG', started().kubeconfigPath);
    vi.stubEnv('PORTAL_AUTH', 'proxy');
    vi.stubEnv('PORTAL_PROXY_SECRET', TEST_PROXY_SECRET);
    vi.stubEnv('PORTAL_ADMIN_GROUPS', 'portal-admins');
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    await started().standIn.clearFaults();
    started().standIn.clearFailure();
  });

  return {
    get standIn() {
      return started().standIn;
    },
  };
}

/** The route modules, loaded anew so each test's environment is the one they read. */
export async function routes() {
  vi.resetModules();
  const resources = await import('../src/app/api/platform/resources/route');
  const resourceGroups = await import('../src/app/api/platform/resource-groups/route');
  const data = await import('../src/server/services/storage-accounts');
  return { resources, resourceGroups, data };
}

/**
 * These tests run in proxy mode (PORTAL_AUTH=proxy): the forwarded identity is the signed-in user,
 * an admin unless a test says otherwise.
 */
const ADMIN = throughProxy({ 'x-forwarded-user': 'platform-admin', 'x-forwarded-groups': 'portal-admins' });

export function get(path: string): Request {
  return new Request(`${ORIGIN}${path}`, { headers: { host: 'portal.test', ...ADMIN } });
}

export function post(body: unknown, path = '/api/platform/resources', headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { host: 'portal.test', origin: ORIGIN, 'content-type': 'application/json', ...ADMIN, ...headers },
    body: JSON.stringify(body),
  });
}

export function del(name: string, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}/api/platform/resources?name=${encodeURIComponent(name)}`, {
    method: 'DELETE',
    headers: { host: 'portal.test', origin: ORIGIN, ...ADMIN, ...headers },
  });
}

export const request = (overrides: Record<string, unknown> = {}) => ({
  application: 'webshop',
  environment: 'dev',
  resourceGroup: 'rg-books-dev',
  location: 'westeurope',
  ...overrides,
});

export async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
