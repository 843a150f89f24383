/**
 * The real server process (src/server.ts through tsx, so tests run the current sources without
 * a build), its stdout read line by line and its exit awaited.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('../src/server.ts', import.meta.url));

export interface ServerProcess {
  readonly child: ChildProcess;
  port: number;
  /** Every line written to stdout so far. */
  readonly lines: string[];
  readonly exit: Promise<{ code: number | null; stderr: string }>;
}

export function startServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  let partial = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const complete = (partial + chunk).split('\n');
    partial = complete.pop() ?? '';
    lines.push(...complete.filter(Boolean));
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = once(child, 'exit').then(([code]) => ({ code: code as number | null, stderr }));
  return { child, port: 0, lines, exit };
}

/** The first stdout line matching `pattern`, waiting for it as long as the process runs. */
export async function waitForLine(server: ServerProcess, pattern: RegExp): Promise<string> {
  for (;;) {
    const line = server.lines.find((candidate) => pattern.test(candidate));
    if (line !== undefined) return line;
    const result = await Promise.race([once(server.child.stdout!, 'data').then(() => undefined), server.exit]);
    if (result !== undefined) {
      const again = server.lines.find((candidate) => pattern.test(candidate));
      if (again !== undefined) return again;
      throw new Error(`server exited (${result.code}) before logging ${pattern}: ${result.stderr}`);
    }
  }
}

/** A started server once it logged its address. */
export async function listeningServer(env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = startServer(env);
  const line = await waitForLine(server, /Server listening at http:\/\/127\.0\.0\.1:\d+/);
  server.port = Number(/127\.0\.0\.1:(\d+)/.exec(line)![1]);
  return server;
}
