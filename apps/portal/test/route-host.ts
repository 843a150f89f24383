/**
 * The portal's platform routes in a child process of their own (test/fixtures/route-host.ts): a
 * portal replica that talks to the Kubernetes stand-in and, through the official Azure SDK, to the
 * ARM stand-in, whose authority only a new process can be told to trust.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { armClientEnvironment } from '../kube-stand-in/index';
import type { TestCluster } from './kubernetes-harness';

const portalDir = fileURLToPath(new URL('..', import.meta.url));

/** The proof proxy mode asks of every request, when the portal asks for one. */
export const PROXY_SECRET = 'route-host-proxy-secret-0123456789abcdef';

/** A signed-in person as the authenticating proxy forwards them. */
export interface ProxyUser {
  user: string;
  email?: string;
  groups?: string;
}

export interface RouteAnswer<T> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RouteHost {
  url: string;
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    as: ProxyUser,
    body?: unknown,
  ): Promise<RouteAnswer<T>>;
  output(): string;
  stop(): Promise<void>;
}

export interface RouteHostOptions {
  /** Observe the ARM stand-in and ask it for names (PORTAL_AZURE_*); default true. */
  azure?: boolean;
  env?: Record<string, string>;
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startRouteHost(cluster: TestCluster, options: RouteHostOptions = {}): Promise<RouteHost> {
  // Only what the portal reads: no Azure or database variables of this machine leak in.
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    PATH: process.env['PATH'] ?? '',
    HOME: cluster.directory,
    KUBECONFIG: cluster.kubeconfigPath,
    PORTAL_MOCK_PLATFORM: 'false',
    PORTAL_AUTH: 'proxy',
    PORTAL_PROXY_SECRET: PROXY_SECRET,
    PORTAL_ADMIN_GROUPS: 'portal-admins',
    PORTAL_REQUESTER_GROUPS: 'portal-requesters',
    PORTAL_LOG_LEVEL: 'error',
    ...(options.azure === false ? {} : armClientEnvironment(cluster.standIn, cluster.caPath)),
    ...options.env,
  };
  let output = '';
  // The react-server condition is the one Next.js resolves server code with ('server-only' among it).
  const child = spawn(
    process.execPath,
    ['--conditions=react-server', '--import', 'tsx', 'test/fixtures/route-host.ts'],
    { cwd: portalDir, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the route host exited with ${code}:\n${output}`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
  });
  lines.on('line', (line) => (output += `${line}\n`));
  return {
    url,
    async call<T>(method: string, path: string, as: ProxyUser, body?: unknown) {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: {
          'x-portal-proxy-secret': PROXY_SECRET,
          'x-forwarded-user': as.user,
          ...(as.email ? { 'x-forwarded-email': as.email } : {}),
          ...(as.groups ? { 'x-forwarded-groups': as.groups } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : {}) as T };
    },
    output: () => output,
    stop: () => stopChild(child),
  };
}
