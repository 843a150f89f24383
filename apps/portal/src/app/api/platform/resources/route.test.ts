import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const ORIGIN = 'http://portal.test';

async function loadRoutes() {
  vi.resetModules();
  return import('./route');
}

function jsonRequest(body: unknown, init: RequestInit & { path?: string } = {}): Request {
  const { path = '/api/platform/resources', headers, ...rest } = init;
  return new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { host: 'portal.test', 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...rest,
  });
}

const validRequest = {
  application: 'webshop',
  environment: 'dev',
  resourceGroup: 'rg-books-dev',
  location: 'westeurope',
};

describe('platform resources API in development mode', () => {
  beforeEach(() => {
    vi.stubEnv('PORTAL_MOCK_PLATFORM', 'true');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('GET lists an empty inventory', async () => {
    const { GET } = await loadRoutes();
    const response = await GET(new Request(`${ORIGIN}/api/platform/resources`));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ items: [] });
  });

  it('GET ?name= returns a synthetic storage account for that name', async () => {
    const { GET } = await loadRoutes();
    const response = await GET(new Request(`${ORIGIN}/api/platform/resources?name=stdemo01`));
    expect(response.status).toBe(200);
    const { item } = (await response.json()) as { item: Record<string, unknown> };
    expect(item).toMatchObject({ name: 'stdemo01', state: 'Ready', kind: 'StorageV2', sku: 'Standard_LRS' });
  });

  it('POST accepts a valid request and answers 201 with a generated name', async () => {
    const { POST } = await loadRoutes();
    const response = await POST(jsonRequest(validRequest));
    expect(response.status).toBe(201);
    const { item } = (await response.json()) as { item: { name: string; application: string } };
    expect(item.name).toMatch(/^stwebshop[a-z0-9]{5}$/);
    expect(item.application).toBe('webshop');
  });
});
