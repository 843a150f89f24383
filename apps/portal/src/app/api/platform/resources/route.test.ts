import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const ORIGIN = 'http://portal.test';
const RESOURCES = `${ORIGIN}/api/platform/resources`;

/** Fresh modules per test, so the backend is chosen from this test's environment. */
async function routes() {
  vi.resetModules();
  return import('./route');
}

function post(body: BodyInit | null, headers: Record<string, string> = {}, url = RESOURCES): Request {
  const init: RequestInit & { duplex?: 'half' } = {
    method: 'POST',
    headers: { host: 'portal.test', 'content-type': 'application/json', ...headers },
    body,
    // Needed by undici for streamed bodies.
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  };
  return new Request(url, init);
}

const valid = { application: 'webshop', environment: 'dev', resourceGroup: 'rg-books-dev', location: 'westeurope' };

async function json(response: Response) {
  return (await response.json()) as Record<string, unknown> & { error?: string; fields?: Record<string, string> };
}

describe('platform resources API in development mode', () => {
  beforeEach(() => vi.stubEnv('PORTAL_MOCK_PLATFORM', 'true'));
  afterEach(() => vi.unstubAllEnvs());

  describe('development-mode answers', () => {
    it('GET lists an empty inventory', async () => {
      const { GET } = await routes();
      const response = await GET(new Request(RESOURCES));
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toBeTruthy();
      expect(await response.json()).toEqual({
        items: [],
        total: 0,
        next: null,
        previous: null,
        clusterAvailable: true,
        cloud: { status: 'unconfigured' },
      });
    });

    it('GET ?name= returns a synthetic storage account record for that name', async () => {
      const { GET } = await routes();
      const response = await GET(new Request(`${RESOURCES}?name=stdemo01`));
      expect(response.status).toBe(200);
      const { item } = (await response.json()) as { item: Record<string, unknown> };
      expect(item).toMatchObject({ name: 'stdemo01', state: 'Ready', kind: 'StorageV2', sku: 'Standard_LRS' });
      expect(item).not.toHaveProperty('spec');
      expect(item).not.toHaveProperty('metadata');
    });

    it('POST accepts a request without a name and answers 201 with a generated name', async () => {
      const { POST } = await routes();
      const response = await POST(post(JSON.stringify(valid)));
      expect(response.status).toBe(201);
      const { item } = (await response.json()) as { item: { name: string; application: string } };
      expect(item.name).toMatch(/^stwebshop[a-z0-9]{5}$/);
      expect(item.application).toBe('webshop');
      expect(response.headers.get('location')).toBe(`/resources/${item.name}`);
    });

    it('POST generates a different name each time', async () => {
      const { POST } = await routes();
      const names = await Promise.all(
        [1, 2, 3].map(
          async () =>
            ((await (await POST(post(JSON.stringify(valid)))).json()) as { item: { name: string } }).item.name,
        ),
      );
      expect(new Set(names).size).toBe(3);
    });

    it('POST keeps the name the person chose', async () => {
      const { POST } = await routes();
      const response = await POST(post(JSON.stringify({ ...valid, name: 'stmine01' })));
      expect(((await response.json()) as { item: { name: string } }).item.name).toBe('stmine01');
    });

    it('POST with the same Idempotency-Key and body answers the first result again', async () => {
      const { POST } = await routes();
      const key = { 'idempotency-key': 'form-7f3a' };
      const first = await POST(post(JSON.stringify(valid), key));
      const again = await POST(post(JSON.stringify(valid), key));
      expect([first.status, again.status]).toEqual([201, 201]);
      const name = ((await first.json()) as { item: { name: string } }).item.name;
      expect(((await again.json()) as { item: { name: string } }).item.name).toBe(name);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const other = await POST(post(JSON.stringify(valid), { 'idempotency-key': 'form-other' }));
      expect(((await other.json()) as { item: { name: string } }).item.name).not.toBe(name);
    });

    it('POST refuses an Idempotency-Key reused with a different body, and a malformed key', async () => {
      const { POST } = await routes();
      const key = { 'idempotency-key': 'form-reused' };
      expect((await POST(post(JSON.stringify(valid), key))).status).toBe(201);
      const changed = await POST(post(JSON.stringify({ ...valid, application: 'other' }), key));
      expect(changed.status).toBe(422);
      expect((await json(changed)).error).toMatch(/already used with a different request/);
      const malformed = await POST(post(JSON.stringify(valid), { 'idempotency-key': 'two words' }));
      expect(malformed.status).toBe(400);
    });

    it('POST does not remember a failed create, so the same key can be retried after a fix', async () => {
      const { POST } = await routes();
      const key = { 'idempotency-key': 'form-retry' };
      expect((await POST(post(JSON.stringify({ ...valid, location: 'mars' }), key))).status).toBe(400);
      expect((await POST(post(JSON.stringify(valid), key))).status).toBe(201);
    });

    it('POST ?dryRun=true answers 200 with the manifest the server would create', async () => {
      const { POST } = await routes();
      const response = await POST(post(JSON.stringify(valid), {}, `${RESOURCES}?dryRun=true`));
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        manifest: { kind: string; spec: { forProvider: Record<string, unknown> } };
      };
      expect(body.manifest.kind).toBe('Account');
      expect(body.manifest.spec.forProvider).toMatchObject({ minTlsVersion: 'TLS1_2', httpsTrafficOnlyEnabled: true });
    });

    it('DELETE ?name= is accepted', async () => {
      const { DELETE } = await routes();
      const response = await DELETE(new Request(`${RESOURCES}?name=stdemo01`, { method: 'DELETE' }));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ item: { name: 'stdemo01' } });
    });
  });

  describe('validation', () => {
    it('answers 400 with field errors for broken Azure rules', async () => {
      const { POST } = await routes();
      const response = await POST(
        post(JSON.stringify({ ...valid, name: 'Bad', accountKind: 'FileStorage', sftpEnabled: true })),
      );
      expect(response.status).toBe(400);
      const body = await json(response);
      expect(body.error).toBe('The storage account request is invalid');
      expect(Object.keys(body.fields ?? {}).sort()).toEqual(['accountTier', 'name', 'sftpEnabled']);
    });

    it('rejects unknown fields, so a raw manifest cannot be smuggled in', async () => {
      const { POST } = await routes();
      const response = await POST(
        post(JSON.stringify({ ...valid, spec: { forProvider: { minTlsVersion: 'TLS1_0' } } })),
      );
      expect(response.status).toBe(400);
      expect((await json(response)).fields).toEqual({ spec: 'Unknown field' });
    });

    it('rejects wrong types', async () => {
      const { POST } = await routes();
      const response = await POST(post(JSON.stringify({ ...valid, application: 7, httpsOnly: 'true' })));
      expect(response.status).toBe(400);
      expect((await json(response)).fields).toEqual({
        application: 'Application must be a string',
        httpsOnly: 'HTTPS only must be true or false',
      });
    });

    it('accepts a resource group it does not list: development mode has no cluster to ask', async () => {
      const { POST } = await routes();
      const response = await POST(post(JSON.stringify({ ...valid, resourceGroup: 'rg-somebody-else' })));
      expect(response.status).toBe(201);
      const { item } = (await response.json()) as { item: { name: string; resourceGroup: string } };
      expect(item.name).toMatch(/^stwebshop[a-z0-9]{5}$/);
      expect(item.resourceGroup).toBe('rg-somebody-else');
    });

    it('accepts westus3 and any other Azure public region', async () => {
      const { POST } = await routes();
      const response = await POST(post(JSON.stringify({ ...valid, location: 'westus3' })));
      expect(response.status).toBe(201);
      expect(((await response.json()) as { item: { location: string } }).item.location).toBe('westus3');
    });

    it('refuses a region outside PORTAL_ALLOWED_LOCATIONS, naming the allowed ones', async () => {
      vi.stubEnv('PORTAL_ALLOWED_LOCATIONS', 'westus3,westeurope');
      const { POST } = await routes();
      const refused = await POST(post(JSON.stringify({ ...valid, location: 'northeurope' })));
      expect(refused.status).toBe(400);
      expect((await json(refused)).fields).toEqual({
        location: '"northeurope" is not an allowed location; use one of westus3, westeurope',
      });
      expect((await POST(post(JSON.stringify({ ...valid, location: 'westus3' })))).status).toBe(201);
    });

    it.each([
      ['malformed JSON', '{"application":', 'Request body is not valid JSON'],
      ['an empty body', '', 'Request body is empty; send a JSON object'],
      ['a JSON array', '[]', 'Request body must be a JSON object'],
      ['JSON null', 'null', 'Request body must be a JSON object'],
    ])('answers 400 for %s', async (_case, body, message) => {
      const { POST } = await routes();
      const response = await POST(post(body));
      expect(response.status).toBe(400);
      expect(await json(response)).toEqual({ error: message });
    });

    it('answers 400 for a GET or DELETE without a usable name', async () => {
      const { GET, DELETE } = await routes();
      expect((await GET(new Request(`${RESOURCES}?name=Not%20A%20Name`))).status).toBe(400);
      expect((await DELETE(new Request(RESOURCES, { method: 'DELETE' }))).status).toBe(400);
    });

    it('answers 405 with an Allow header for other methods', async () => {
      const { PUT } = await routes();
      const response = await PUT(new Request(RESOURCES, { method: 'PUT' }));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, POST, PATCH, DELETE');
      expect((await json(response)).error).toContain('PUT');
    });
  });

  describe('same-origin JSON rule for mutations', () => {
    it('refuses a cross-site form post with 403', async () => {
      const { POST } = await routes();
      const response = await POST(
        post('application=webshop', {
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'https://evil.example',
          'sec-fetch-site': 'cross-site',
        }),
      );
      expect(response.status).toBe(403);
      expect(await json(response)).toEqual({ error: 'Cross-site requests are not allowed' });
    });

    it('refuses a JSON post from another origin', async () => {
      const { POST } = await routes();
      expect((await POST(post(JSON.stringify(valid), { origin: 'https://evil.example' }))).status).toBe(403);
      expect((await POST(post(JSON.stringify(valid), { 'sec-fetch-site': 'same-site' }))).status).toBe(403);
    });

    it('refuses a cross-site DELETE', async () => {
      const { DELETE } = await routes();
      const response = await DELETE(
        new Request(`${RESOURCES}?name=stdemo01`, {
          method: 'DELETE',
          headers: { host: 'portal.test', origin: 'https://evil.example' },
        }),
      );
      expect(response.status).toBe(403);
    });

    it('accepts a post from the portal itself', async () => {
      const { POST } = await routes();
      const response = await POST(post(JSON.stringify(valid), { origin: ORIGIN, 'sec-fetch-site': 'same-origin' }));
      expect(response.status).toBe(201);
    });

    it('refuses a text/plain body with 415', async () => {
      const { POST } = await routes();
      const response = await POST(post(JSON.stringify(valid), { 'content-type': 'text/plain' }));
      expect(response.status).toBe(415);
      expect((await json(response)).error).toContain('application/json');
    });
  });

  describe('body size limit', () => {
    const oversized = JSON.stringify({ ...valid, application: 'a'.repeat(64 * 1024) });

    it('refuses a body over 64 KiB with 413', async () => {
      const { POST } = await routes();
      const response = await POST(post(oversized));
      expect(response.status).toBe(413);
      expect(await json(response)).toEqual({ error: 'Request body must not exceed 64 KiB' });
    });

    it('counts the real bytes of a streamed body that declares no length', async () => {
      const { POST } = await routes();
      const bytes = new TextEncoder().encode(oversized);
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let offset = 0; offset < bytes.length; offset += 8192)
            controller.enqueue(bytes.slice(offset, offset + 8192));
          controller.close();
        },
      });
      const request = post(stream);
      expect(request.headers.get('content-length')).toBeNull();
      expect((await POST(request)).status).toBe(413);
    });

    it('accepts a body just under the limit (and judges its content)', async () => {
      const { POST } = await routes();
      const padding = 64 * 1024 - JSON.stringify({ ...valid, name: '' }).length - 10;
      const body = JSON.stringify({ ...valid, name: ' '.repeat(padding) });
      expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(64 * 1024);
      expect((await POST(post(body))).status).toBe(201);
    });
  });
});

describe('resource groups API in development mode', () => {
  beforeEach(() => vi.stubEnv('PORTAL_MOCK_PLATFORM', 'true'));
  afterEach(() => vi.unstubAllEnvs());

  it('offers a small fixed list of approved groups', async () => {
    vi.resetModules();
    const { GET } = await import('../resource-groups/route');
    const response = await GET(new Request(`${ORIGIN}/api/platform/resource-groups`));
    expect(response.status).toBe(200);
    const { items } = (await response.json()) as { items: { name: string; ready: boolean }[] };
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((group) => group.ready)).toBe(true);
  });
});
