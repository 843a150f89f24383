import { describe, expect, it } from 'vitest';
import { createMemorySessionStore } from './session-store';

const principal = { subject: 'https://idp.example#rita', identity: 'rita@example.com', role: 'requester' as const };

describe('in-memory session store', () => {
  it('confirms a session until it is deleted', async () => {
    const store = createMemorySessionStore();
    const id = await store.create({ principal, expiresAt: new Date(Date.now() + 60_000) });
    expect((await store.get(id))?.principal).toEqual(principal);
    await store.delete(id);
    expect(await store.get(id)).toBeUndefined();
  });

  it('forgets a session once it expires', async () => {
    let now = 1_000_000;
    const store = createMemorySessionStore(() => now);
    const id = await store.create({ principal, expiresAt: new Date(now + 1000) });
    expect(await store.get(id)).toBeDefined();
    now += 1000;
    expect(await store.get(id)).toBeUndefined();
  });

  it('hands out unguessable ids and knows no other', async () => {
    const store = createMemorySessionStore();
    const first = await store.create({ principal, expiresAt: new Date(Date.now() + 60_000) });
    const second = await store.create({ principal, expiresAt: new Date(Date.now() + 60_000) });
    expect(first).not.toBe(second);
    expect(first.length).toBeGreaterThanOrEqual(43);
    expect(await store.get('made-up')).toBeUndefined();
  });
});
