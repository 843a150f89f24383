import { describe, expect, it } from 'vitest';
import { AccountFeed, REPLAY_LIMIT } from './account-feed';
import { eventStreamResponse } from './event-stream';

/** Reads the stream's text until `done` says enough, as a browser would keep reading. */
async function readUntil(response: Response, done: (text: string) => boolean): Promise<string> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  for (;;) {
    const { value, done: ended } = await reader.read();
    if (value) text += value;
    if (ended || done(text)) {
      await reader.cancel().catch(() => undefined);
      return text;
    }
  }
}

function stream(feed: AccountFeed, options: Partial<Parameters<typeof eventStreamResponse>[0]> = {}) {
  let closed = 0;
  const response = eventStreamResponse({
    feed,
    subject: 'erin',
    resumeFrom: null,
    stillSignedIn: async () => true,
    onClose: () => (closed += 1),
    signal: new AbortController().signal,
    ...options,
  });
  return { response, closed: () => closed };
}

describe('event stream', () => {
  it('sends a heartbeat comment on its interval while nothing changes', async () => {
    const { response } = stream(new AccountFeed(1000), { heartbeatMs: 20 });
    const text = await readUntil(response, (t) => (t.match(/: heartbeat\n\n/g) ?? []).length >= 2);
    expect(text.startsWith('retry: ')).toBe(true);
    expect((text.match(/: heartbeat\n\n/g) ?? []).length).toBeGreaterThanOrEqual(2);
  });

  it('ends with signed-out once the session behind it ends, and gives its place back once', async () => {
    let signedIn = true;
    const { response, closed } = stream(new AccountFeed(1000), {
      sessionCheckMs: 20,
      stillSignedIn: async () => signedIn,
    });
    setTimeout(() => (signedIn = false), 60);
    const text = await readUntil(response, () => false);
    expect(text).toMatch(/event: signed-out\n/);
    expect(closed()).toBe(1);
  });

  it('closes and gives its place back when the client goes away', async () => {
    const gone = new AbortController();
    const feed = new AccountFeed(1000);
    const { closed } = stream(feed, { signal: gone.signal });
    gone.abort();
    expect(closed()).toBe(1);
    feed.publish({ event: 'account', data: { type: 'deleted', name: 'stx', namespace: null } });
    expect(closed()).toBe(1);
  });

  it('replays what a resume missed, and asks for a reload past the replay buffer', async () => {
    const feed = new AccountFeed(1000);
    for (let i = 0; i < 3; i += 1) {
      feed.publish({ event: 'account', data: { type: 'changed', name: `st${i}`, namespace: null } });
    }
    const { response } = stream(feed, { resumeFrom: '1001' });
    const text = await readUntil(response, (t) => t.includes('id: 1003'));
    expect([...text.matchAll(/^id: (\d+)$/gm)].map((m) => m[1])).toEqual(['1002', '1003']);

    for (let i = 0; i < REPLAY_LIMIT + 5; i += 1) {
      feed.publish({ event: 'account', data: { type: 'changed', name: 'stbusy', namespace: null } });
    }
    expect(feed.since(1001)).toEqual({ reload: true });
    expect(feed.since(999)).toEqual({ reload: true });
    expect(feed.since(feed.latestId + 1)).toEqual({ reload: true });
    expect(feed.since(feed.latestId)).toEqual({ events: [] });
    const tooOld = stream(feed, { resumeFrom: '1001' });
    const reload = await readUntil(tooOld.response, (t) => t.includes('event: reload'));
    expect(reload).toContain(`id: ${feed.latestId}\nevent: reload\n`);
  });
});
