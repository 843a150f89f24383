/**
 * Which of the service's own source files run for one request: the real server process
 * (src/server.ts, JSON logs to a pipe as in production) with V8's precise coverage read around one
 * request, after a warm-up, on a connection of its own (as a `curl` would make).
 *
 * `node --import tsx test/request-path/measure.ts [--postgres]` prints the files and functions per
 * request kind (`--postgres`: on a throwaway database, or one on TEST_DATABASE_URL's server).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest, Agent } from 'node:http';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres, type TestPostgres } from '@books/test-postgres';

const SERVER = fileURLToPath(new URL('../../src/server.ts', import.meta.url));
const AGENT = fileURLToPath(new URL('./coverage-agent.ts', import.meta.url));
const REPOSITORY = fileURLToPath(new URL('../../../../', import.meta.url));
/** The service's own code: the API's sources and the workspace packages it uses. */
const OWN_CODE = /^(apps\/books-api\/src|packages\/[^/]+\/(src|dist))\//;

export type RequestKind = 'get' | 'list' | 'create';

/** A file of the service's own code that ran, and its functions that ran (V8's names; `(anonymous)` when unnamed). */
export interface RanFile {
  /** Relative to the repository root. */
  readonly file: string;
  readonly functions: readonly string[];
}

/** A seeded book (src/store/seed.ts), present in both stores. */
const SEEDED_ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

const REQUESTS: Record<RequestKind, { method: string; path: string; body?: string }> = {
  get: { method: 'GET', path: `/api/v1/books/${SEEDED_ID}` },
  list: { method: 'GET', path: '/api/v1/books?skip=0&limit=20' },
  create: {
    method: 'POST',
    path: '/api/v1/books',
    body: JSON.stringify({ title: 'Refactoring', author: 'Martin Fowler', year: 2018 }),
  },
};

const WARM_UP_REQUESTS = 300;
/** How long after the answer the process may still run code for the request (a log line written later). */
const SETTLE_MS = 300;

/** The service's files whose code ran for one request of each kind, sorted by path. */
export async function measureRequestPath(
  env: Record<string, string> = {},
  kinds: readonly RequestKind[] = ['get', 'list', 'create'],
): Promise<Record<RequestKind, RanFile[]>> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', AGENT, SERVER], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  try {
    const port = await listeningPort(child.stdout!, () => stderr);
    if (env.DATABASE_URL !== undefined) await untilReady(port);
    let nextId = 0;
    const ask = async (command: 'reset' | 'take'): Promise<{ url: string; functions: string[] }[]> => {
      const id = nextId++;
      child.send({ id, command });
      for (;;) {
        const [message] = (await once(child, 'message')) as [
          { id: number; files: { url: string; functions: string[] }[] },
        ];
        if (message.id === id) return message.files;
      }
    };
    const result = {} as Record<RequestKind, RanFile[]>;
    for (const kind of kinds) {
      // Warmed up with requests of the same kind just before, as a server under that load is.
      const keepAlive = new Agent({ keepAlive: true, maxSockets: 4 });
      for (let i = 0; i < WARM_UP_REQUESTS; i++) await send(port, kind, keepAlive);
      keepAlive.destroy();
      await ask('reset');
      await send(port, kind, false);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      result[kind] = (await ask('take'))
        .map(({ url, functions }) => ({ file: relative(REPOSITORY, fileURLToPath(url)), functions }))
        .filter(({ file }) => OWN_CODE.test(file))
        .sort((a, b) => a.file.localeCompare(b.file));
    }
    return result;
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

/**
 * The port from the "listening" line. The pipe is read with 'data' events and stays open afterwards:
 * leaving a `for await` loop would destroy it, and the server stops when nobody reads its log.
 */
function listeningPort(stdout: NodeJS.ReadableStream, stderr: () => string): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: string) => {
      text += chunk;
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
      if (!match) return;
      stdout.off('data', onData).off('end', onEnd);
      stdout.resume(); // the later lines are read and dropped
      resolve(Number(match[1]));
    };
    const onEnd = () => reject(new Error(`the server exited before listening: ${stderr()}`));
    stdout.setEncoding('utf8');
    stdout.on('data', onData).on('end', onEnd);
  });
}

async function untilReady(port: number): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if ((await send(port, 'get', false)) === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the PostgreSQL store never became ready');
}

function send(port: number, kind: RequestKind, agent: Agent | false): Promise<number> {
  const { method, path, body } = REQUESTS[kind];
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, method, path, agent, headers: body ? { 'content-type': 'application/json' } : {} },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const env: Record<string, string> = {};
  let database: TestPostgres | undefined;
  if (process.argv.includes('--postgres')) {
    database = await startPostgres();
    env.DATABASE_URL = await database.createDatabase('books');
  }
  try {
    for (const [kind, files] of Object.entries(await measureRequestPath(env))) {
      console.log(`${kind}: ${files.length} files`);
      for (const { file, functions } of files) console.log(`  ${file}: ${functions.join(', ')}`);
    }
  } finally {
    await database?.stop();
  }
}
