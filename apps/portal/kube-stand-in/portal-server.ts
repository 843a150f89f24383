/**
 * Starts the portal's production server (`next start`, after `npm run portal:build`) as a child
 * process, pointed at a kubeconfig or in development mode, and waits until it answers. The one
 * launcher of the sandbox and of every browser journey.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';

const portalDir = fileURLToPath(new URL('..', import.meta.url));
const nextBin = fileURLToPath(new URL('../../../node_modules/next/dist/bin/next', import.meta.url));

export interface PortalServer {
  url: string;
  /** The server process, for reading its memory. */
  pid: number;
  /** The child process itself, for tests of how it ends (its output pipes, its exit). */
  process: ChildProcess;
  /** Everything the server printed, for diagnosing a failed test. */
  output(): string;
  stop(): Promise<void>;
}

export interface PortalServerOptions {
  /** The cluster to talk to; without it, pass PORTAL_MOCK_PLATFORM in env for development mode. */
  kubeconfigPath?: string;
  /** 0 picks a free port. */
  port?: number;
  env?: Record<string, string>;
  /** Mirror the server's output on this process's stderr. */
  echo?: boolean;
  startTimeoutMs?: number;
}

/**
 * The Node options the portal's server runs with (node-options.env: the V8 heap's sizes), which the
 * image and `npm start` give Node with --env-file. Here they go on the command line, so a NODE_OPTIONS
 * in the caller's environment adds to them rather than replacing them.
 */
export function serverNodeOptions(): string[] {
  const { NODE_OPTIONS = '' } = parseEnv(readFileSync(`${portalDir}node-options.env`, 'utf8'));
  return NODE_OPTIONS.split(/\s+/).filter(Boolean);
}

export function hasProductionBuild(): boolean {
  return existsSync(`${portalDir}.next/BUILD_ID`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
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

export async function startPortalServer(options: PortalServerOptions): Promise<PortalServer> {
  if (!hasProductionBuild()) throw new Error('No portal production build: run `npm run portal:build` first');
  const port = options.port || (await freePort());
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const args = [...serverNodeOptions(), nextBin, 'start', '--port', String(port), '--hostname', '127.0.0.1'];
  const child = spawn(process.execPath, args, {
    cwd: portalDir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      PORTAL_PORT: String(port),
      ...(options.kubeconfigPath === undefined
        ? {}
        : { PORTAL_MOCK_PLATFORM: 'false', KUBECONFIG: options.kubeconfigPath }),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
    if (options.echo) process.stderr.write(chunk);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The portal exited with code ${child.exitCode}:\n${output}`);
    try {
      // Any answer means it is up; with sign-in on, pages answer with a redirect that is not followed.
      const response = await fetch(`${url}/catalog`, { signal: AbortSignal.timeout(5000), redirect: 'manual' });
      await response.arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) {
        await stopChild(child);
        throw new Error(`The portal did not answer on ${url} in time:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return { url, pid: child.pid ?? 0, process: child, output: () => output, stop: () => stopChild(child) };
}
