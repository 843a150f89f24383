import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handleRoute, methodNotAllowed } from './handle-route';

/** Every JSON line the portal's logger wrote to stdout during the test. */
function captureLogLines() {
  const lines: Record<string, unknown>[] = [];
  const original = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (!text.startsWith('{"level"')) return original(chunk, ...(rest as []));
    for (const line of text.split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    return true;
  });
  return lines;
}

describe('route handler wrapper', () => {
  let lines: Record<string, unknown>[];
  beforeEach(() => {
    lines = captureLogLines();
  });
  afterEach(() => vi.restoreAllMocks());

  it('writes one JSON line per request with request id, user, status and latency', async () => {
    const route = handleRoute(async () => Response.json({ items: [] }));
    const response = await route(
      new Request('http://portal.test/api/platform/resources?name=x', {
        headers: { 'x-request-id': 'req-log-0001', 'x-forwarded-email': 'dev@example.test' },
      }),
    );
    expect(response.headers.get('x-request-id')).toBe('req-log-0001');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      requestId: 'req-log-0001',
      user: 'dev@example.test',
      method: 'GET',
      path: '/api/platform/resources?name=x',
      status: 200,
    });
    expect(lines[0]?.latencyMs).toEqual(expect.any(Number));
  });

  it('logs an unexpected failure with its stack and answers 500 without internals', async () => {
    const route = handleRoute(async () => {
      throw new Error('database password is hunter2');
    });
    const response = await route(new Request('http://portal.test/api/platform/resources'));
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).not.toContain('hunter2');
    const failure = lines.find((line) => line.msg === 'platform request failed');
    expect(failure).toMatchObject({ level: 50, status: 500, requestId: response.headers.get('x-request-id') });
    expect((failure?.err as { stack?: string }).stack).toMatch(/Error: database password is hunter2\n\s+at /);
    expect(lines.filter((line) => line.status === 500 && line.path)).toHaveLength(1);
  });

  it('logs a refused method too', async () => {
    const response = await methodNotAllowed(['GET'])(new Request('http://portal.test/api/x', { method: 'PUT' }));
    expect(response.status).toBe(405);
    expect(lines).toEqual([expect.objectContaining({ method: 'PUT', path: '/api/x', status: 405 })]);
  });
});
