import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handleRoute, methodNotAllowed } from './handle-route';
import { TEST_PROXY_SECRET, throughProxy } from '../../../test/proxy-sign-in';
import { captureLogLines } from '../../../test/log-lines';

describe('route handler wrapper', () => {
  let lines: Record<string, unknown>[];
  beforeEach(() => {
    // Proxy mode: the forwarded identity is the signed-in user these requests log.
    vi.stubEnv('PORTAL_AUTH', 'proxy');
    vi.stubEnv('PORTAL_PROXY_SECRET', TEST_PROXY_SECRET);
    lines = captureLogLines();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('writes one JSON line per request with request id, user, status and latency', async () => {
    const route = handleRoute(async () => Response.json({ items: [] }));
    const response = await route(
      new Request('http://portal.test/api/platform/resources?name=x', {
        headers: { 'x-request-id': 'req-log-0001', ...throughProxy({ 'x-forwarded-email': 'dev@example.test' }) },
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
    const response = await route(
      new Request('http://portal.test/api/platform/resources', {
        headers: throughProxy({ 'x-forwarded-user': 'dev' }),
      }),
    );
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).not.toContain('hunter2');
    const failure = lines.find((line) => line.msg === 'platform request failed');
    expect(failure).toMatchObject({ level: 50, status: 500, requestId: response.headers.get('x-request-id') });
    expect((failure?.err as { stack?: string }).stack).toMatch(/Error: database password is hunter2\n\s+at /);
    expect(lines.filter((line) => line.status === 500 && line.path)).toHaveLength(1);
  });

  it.each([
    ['a visible ASCII id', 'trace-1/~!', true],
    ['128 characters', 'x'.repeat(128), true],
    ['129 characters', 'x'.repeat(129), false],
    ['a space', 'two words', false],
    ['non-ASCII text', 'café', false],
  ])(
    'echoes an incoming X-Request-ID with %s only when it is 1-128 visible ASCII characters',
    async (_, id, echoed) => {
      const route = handleRoute(async () => Response.json({}));
      const response = await route(new Request('http://portal.test/api/x', { headers: { 'x-request-id': id } }));
      const answered = response.headers.get('x-request-id');
      if (echoed) expect(answered).toBe(id);
      else expect(answered).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    },
  );

  it('logs a refused method too', async () => {
    const response = await methodNotAllowed(['GET'])(new Request('http://portal.test/api/x', { method: 'PUT' }));
    expect(response.status).toBe(405);
    expect(lines).toEqual([expect.objectContaining({ method: 'PUT', path: '/api/x', status: 405 })]);
  });
});
