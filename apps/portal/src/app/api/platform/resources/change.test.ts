import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** PATCH (change in place) and POST resync in development mode: checked fully, nothing kept. */
const ORIGIN = 'http://portal.test';
const RESOURCES = `${ORIGIN}/api/platform/resources`;

async function routes() {
  vi.resetModules();
  return { resources: await import('./route'), resync: await import('./resync/route') };
}

function patch(body: unknown, query = '?name=stdemo01', headers: Record<string, string> = {}): Request {
  return new Request(`${RESOURCES}${query}`, {
    method: 'PATCH',
    headers: { host: 'portal.test', 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

interface Body {
  item?: {
    name: string;
    accessTier?: string;
    resourceVersion?: string;
    desired: Record<string, unknown>;
    settings: Record<string, unknown>;
    changeable: Record<string, unknown>;
    lastChangedBy?: string;
    sync: { resyncRequestedAt?: string; resyncRequestedBy?: string };
  };
  changes?: { field: string; from: unknown; to: unknown }[];
  error?: string;
  fields?: Record<string, string>;
}

const json = async (response: Response) => (await response.json()) as Body;

describe('changing an account in development mode', () => {
  beforeEach(() => vi.stubEnv('PORTAL_MOCK_PLATFORM', 'true'));
  afterEach(() => vi.unstubAllEnvs());

  it('PATCH answers 200 with the changed account and what changed', async () => {
    const { resources } = await routes();
    const { item } = await json(await resources.GET(new Request(`${RESOURCES}?name=stdemo01`)));
    expect(item?.resourceVersion).toBeTruthy();
    const response = await resources.PATCH(
      patch({ resourceVersion: item?.resourceVersion, accessTier: 'Cool', environment: 'prod' }, '?name=stdemo01', {
        'x-forwarded-email': 'dev@books.example',
      }),
    );
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.item).toMatchObject({ name: 'stdemo01', accessTier: 'Cool', lastChangedBy: 'developer' });
    expect(body.item?.desired).toMatchObject({ accessTier: 'Cool', environment: 'prod' });
    // The two settings views API clients read, derived at the edge from the same shape.
    expect(body.item?.changeable).toMatchObject({ accessTier: 'Cool', environment: 'prod', httpsOnly: true });
    expect(body.item?.settings).toMatchObject({ accessTier: 'Cool', minTlsVersion: 'TLS1_2', httpsOnly: true });
    expect(body.changes).toEqual([
      { field: 'accessTier', label: 'Access tier', from: 'Hot', to: 'Cool' },
      { field: 'environment', label: 'Environment', from: 'dev', to: 'prod' },
    ]);
  });

  it('PATCH answers 409 for a version that is not the one last read', async () => {
    const { resources } = await routes();
    const response = await resources.PATCH(patch({ resourceVersion: '999', accessTier: 'Cool' }));
    expect(response.status).toBe(409);
    expect((await json(response)).error).toMatch(/changed by someone else after you loaded it/);
  });

  it('PATCH answers 400 naming a field that cannot change in place, and for a missing version', async () => {
    const { resources } = await routes();
    const fixed = await json(await resources.PATCH(patch({ resourceVersion: '1', location: 'eastus' })));
    expect(fixed.error).toBe('These fields cannot be changed in place: location');
    expect(fixed.fields?.['location']).toMatch(/cannot move to another region/);
    const unversioned = await resources.PATCH(patch({ accessTier: 'Cool' }));
    expect(unversioned.status).toBe(400);
    expect((await json(unversioned)).fields).toHaveProperty('resourceVersion');
  });

  it('PATCH answers 400 for a combination Azure refuses, and when the name is missing', async () => {
    const { resources } = await routes();
    const response = await resources.PATCH(patch({ resourceVersion: '1', allowedIpRanges: ['198.51.100.7'] }));
    expect(response.status).toBe(400);
    expect((await json(response)).fields?.['allowedIpRanges']).toMatch(/public network access/);
    expect((await resources.PATCH(patch({ resourceVersion: '1' }, ''))).status).toBe(400);
  });

  it('PATCH is refused cross-site and without a JSON body', async () => {
    const { resources } = await routes();
    const crossSite = await resources.PATCH(
      patch({ resourceVersion: '1' }, '?name=stdemo01', { origin: 'https://evil.example' }),
    );
    expect(crossSite.status).toBe(403);
    const text = await resources.PATCH(
      new Request(`${RESOURCES}?name=stdemo01`, {
        method: 'PATCH',
        headers: { 'content-type': 'text/plain' },
        body: '{}',
      }),
    );
    expect(text.status).toBe(415);
  });

  it('POST resync answers 202 with the request recorded and who asked', async () => {
    const { resync } = await routes();
    const response = await resync.POST(
      new Request(`${RESOURCES}/resync?name=stdemo01`, {
        method: 'POST',
        headers: { host: 'portal.test', 'x-forwarded-email': 'ops@books.example' },
      }),
    );
    expect(response.status).toBe(202);
    const { item } = await json(response);
    expect(item?.sync.resyncRequestedBy).toBe('developer');
    expect(Date.parse(item?.sync.resyncRequestedAt ?? '')).not.toBeNaN();
    expect((await resync.GET(new Request(`${RESOURCES}/resync?name=stdemo01`))).status).toBe(405);
  });
});
