/**
 * The server run the way users run it: the real process (src/server.ts, as `npm start` runs its
 * build), the default configuration, listening on a real port, and a keep-alive client that keeps
 * its connections. A clean mix of every route must leave no warning or error in the log, give each
 * request exactly one log line, and travel over connections the server keeps open. Each store
 * runs it, with response write batching at its default (on) and off.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { KeepAliveClient, type KeepAliveRequest, type KeepAliveResponse } from './keep-alive-client.js';
import { freshDatabase } from './postgres.js';
import { listeningServer, waitForLine, type ServerProcess } from './server-process.js';

const SEEDED_ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const BOOKS = '/api/v1/books';
const JSON_BODY = { 'content-type': 'application/json' };

interface Step extends KeepAliveRequest {
  /** The route as the OpenAPI document names it, for the coverage check; absent for error answers. */
  readonly route?: string;
  readonly status: number;
  /** False for the one route kept out of the request log (favicon.ts). */
  readonly logged?: boolean;
}

/** One round of the mix: every route, its ordinary answers and its everyday client errors. */
function roundOfRequests(round: number): ((created: string) => Step)[] {
  const title = `Keep-alive round ${round}`;
  return [
    () => ({ method: 'GET', path: '/', route: 'get /', status: 200 }),
    () => ({ method: 'GET', path: '/api/ps', route: 'get /api/ps', status: 200 }),
    () => ({ method: 'HEAD', path: '/api/status', route: 'head /api/status', status: 200 }),
    () => ({ method: 'OPTIONS', path: '/api/options', route: 'options /api/options', status: 200 }),
    () => ({ method: 'GET', path: '/api/redirect', route: 'get /api/redirect', status: 307 }),
    () => ({ method: 'GET', path: '/openapi.json', status: 200 }),
    () => ({ method: 'GET', path: '/docs', status: 200 }),
    () => ({ method: 'GET', path: '/redoc', status: 200 }),
    () => ({ method: 'GET', path: '/favicon.ico', status: 204, logged: false }),
    () => ({ method: 'GET', path: '/metrics', route: 'get /metrics', status: 200 }),
    () => ({
      method: 'POST',
      path: '/token',
      route: 'post /token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=reader&password=not-configured',
      // No JWT_SECRET_KEY in the default configuration: token login answers that it is not configured.
      status: 503,
    }),
    () => ({ method: 'GET', path: `${BOOKS}?skip=1&limit=2`, route: `get ${BOOKS}`, status: 200 }),
    () => ({ method: 'GET', path: `${BOOKS}/search?q=clean`, route: `get ${BOOKS}/search`, status: 200 }),
    () => ({
      method: 'POST',
      path: BOOKS,
      route: `post ${BOOKS}`,
      headers: JSON_BODY,
      body: JSON.stringify({ title, author: 'Client', year: 2001 }),
      status: 201,
    }),
    (id) => ({ method: 'GET', path: `${BOOKS}/${id}`, route: `get ${BOOKS}/{book_id}`, status: 200 }),
    (id) => ({
      method: 'PATCH',
      path: `${BOOKS}/${id}`,
      route: `patch ${BOOKS}/{book_id}`,
      headers: JSON_BODY,
      body: JSON.stringify({ year: 2002 }),
      status: 200,
    }),
    () => ({ method: 'GET', path: `${BOOKS}/search?q=${encodeURIComponent(title)}`, status: 200 }),
    (id) => ({ method: 'DELETE', path: `${BOOKS}/${id}`, route: `delete ${BOOKS}/{book_id}`, status: 200 }),
    (id) => ({ method: 'GET', path: `${BOOKS}/${id}`, status: 404 }),
    () => ({ method: 'GET', path: `${BOOKS}/${SEEDED_ID}`, status: 200 }),
    () => ({ method: 'GET', path: `${BOOKS}?limit=0`, status: 422 }),
    () => ({ method: 'POST', path: BOOKS, headers: JSON_BODY, body: '{"year": 1800}', status: 422 }),
    () => ({ method: 'PUT', path: BOOKS, status: 405 }),
    () => ({ method: 'GET', path: '/no/such/route', status: 404 }),
  ];
}

interface Sent {
  readonly step: Step;
  readonly requestId: string;
  readonly response: KeepAliveResponse;
}

async function send(client: KeepAliveClient, step: Step, requestId: string): Promise<Sent> {
  const response = await client.send({ ...step, headers: { ...step.headers, 'x-request-id': requestId } });
  assert.equal(response.status, step.status, `${step.method} ${step.path}: ${response.body}`);
  assert.equal(response.headers['x-request-id'], requestId);
  return { step, requestId, response };
}

/** The mix in order on one connection, `rounds` times; the created book's id feeds the steps after it. */
async function sequentialMix(client: KeepAliveClient, label: string, rounds: number): Promise<Sent[]> {
  const sent: Sent[] = [];
  for (let round = 0; round < rounds; round++) {
    let created = '';
    for (const [index, stepOf] of roundOfRequests(round).entries()) {
      const result = await send(client, stepOf(created), `${label}-seq-${round}-${index}`);
      if (result.step.method === 'POST' && result.step.status === 201) {
        created = (JSON.parse(result.response.body) as { id: string }).id;
      }
      sent.push(result);
    }
  }
  return sent;
}

/**
 * Reads and writes in flight together over a few connections, so the answers of one event-loop
 * turn (several connections, the PostgreSQL store's coalesced reads) are written together.
 */
async function concurrentMix(client: KeepAliveClient, label: string, requests: number): Promise<Sent[]> {
  const steps: Step[] = Array.from({ length: requests }, (_, index): Step => {
    switch (index % 4) {
      case 0:
        return { method: 'GET', path: `${BOOKS}?limit=5`, status: 200 };
      case 1:
        return { method: 'GET', path: `${BOOKS}/${SEEDED_ID}`, status: 200 };
      case 2:
        return { method: 'GET', path: `${BOOKS}/search?q=programmer`, status: 200 };
      default:
        return {
          method: 'POST',
          path: BOOKS,
          headers: JSON_BODY,
          body: JSON.stringify({ title: `Concurrent ${index}`, author: 'Client', year: 2003 }),
          status: 201,
        };
    }
  });
  return Promise.all(steps.map((step, index) => send(client, step, `${label}-con-${index}`)));
}

interface LogLine {
  level: number;
  msg?: string;
  reqId?: string;
  status?: number;
  size?: number;
  client?: string;
  latencyMs?: number;
}

/** Stops the server as an orchestrator does (SIGTERM) and returns every line it wrote. */
async function stopAndReadLog(server: ServerProcess): Promise<LogLine[]> {
  server.child.kill('SIGTERM');
  const { code, stderr } = await server.exit;
  assert.equal(code, 0, stderr);
  assert.equal(stderr, '');
  return server.lines.map((line) => JSON.parse(line) as LogLine);
}

function assertCleanLog(lines: LogLine[], sent: Sent[]): void {
  const noisy = lines.filter((line) => line.level >= 40);
  assert.deepEqual(noisy, [], 'no warning or error during a clean mix');
  // The request log line (request-log-line.ts) is the one with a latency.
  const requestLines = new Map<string, LogLine[]>();
  for (const line of lines) {
    if (line.reqId === undefined || line.latencyMs === undefined) continue;
    requestLines.set(line.reqId, [...(requestLines.get(line.reqId) ?? []), line]);
  }
  for (const { step, requestId, response } of sent) {
    const forRequest = requestLines.get(requestId) ?? [];
    assert.equal(forRequest.length, step.logged === false ? 0 : 1, `log lines for ${step.method} ${step.path}`);
    if (step.logged === false) continue;
    const [line] = forRequest;
    assert.equal(line!.status, response.status);
    assert.equal(line!.client, '127.0.0.1');
    if (step.method !== 'HEAD') assert.equal(line!.size, Buffer.byteLength(response.body), `${step.path} size`);
  }
}

async function servedOverKeepAlive(t: TestContext, env: Record<string, string>, label: string): Promise<void> {
  const server = await listeningServer(env);
  t.after(() => server.child.kill('SIGKILL'));
  // With PostgreSQL the server listens at once and answers 503 until its migrations are applied
  // (open-postgres-store.ts); a fresh database always applies them.
  if (env.DATABASE_URL !== undefined) await waitForLine(server, /database migrations applied/);

  const single = new KeepAliveClient(server.port, 1);
  const sent = await sequentialMix(single, label, 3);
  single.close();
  assert.equal(single.sockets.size, 1, 'every request of the sequential mix on one kept-alive connection');

  const few = new KeepAliveClient(server.port, 4);
  sent.push(...(await concurrentMix(few, label, 200)));
  few.close();
  assert.ok(few.sockets.size <= few.maxSockets, `${few.sockets.size} connections for ${few.maxSockets} sockets`);

  const documented = await fetch(`http://127.0.0.1:${server.port}/openapi.json`).then(
    (response) => response.json() as Promise<{ paths: Record<string, Record<string, unknown>> }>,
  );
  const documentedRoutes = Object.entries(documented.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method} ${path}`),
  );
  const mixed = new Set(sent.flatMap(({ step }) => (step.route === undefined ? [] : [step.route])));
  assert.deepEqual(documentedRoutes.filter((route) => !mixed.has(route)).sort(), [], 'the mix covers every route');

  assertCleanLog(await stopAndReadLog(server), sent);
}

for (const batching of [undefined, 'off'] as const) {
  const env: Record<string, string> = batching === undefined ? {} : { RESPONSE_WRITE_BATCHING: batching };
  const setting = batching === undefined ? 'write batching at its default' : 'write batching off';

  test(`memory store, ${setting}: every route answers once over kept-alive connections with a clean log`, async (t) => {
    await servedOverKeepAlive(t, env, `memory-${batching ?? 'default'}`);
  });

  test(`PostgreSQL store, ${setting}: every route answers once over kept-alive connections with a clean log`, async (t) => {
    const { url } = await freshDatabase(t);
    await servedOverKeepAlive(t, { ...env, DATABASE_URL: url }, `postgres-${batching ?? 'default'}`);
  });
}
