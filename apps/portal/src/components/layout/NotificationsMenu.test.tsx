import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotificationsMenu } from './NotificationsMenu';

/** The part of the browser's EventSource the live connection uses, driven by the test. */
class FakeEventSource {
  static opened: FakeEventSource[] = [];
  readonly listeners = new Map<string, ((event: Event) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: Event) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(): void {}
  emit(type: string, data: unknown): void {
    for (const listener of this.listeners.get(type) ?? [])
      listener(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
}

beforeEach(() => {
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => vi.unstubAllGlobals());

describe('notifications in the header', () => {
  it('counts new notifications from the stream and lists them with links to the account', () => {
    render(
      <NotificationsMenu
        since={7}
        initial={[{ id: 'a', account: 'stold', action: 'create', outcome: 'completed', at: '2026-11-28T10:00:00Z' }]}
      />,
    );
    expect(FakeEventSource.opened[0]?.url).toBe('/api/platform/events?since=7');
    act(() =>
      FakeEventSource.opened[0]?.emit('notification', {
        id: 'b',
        account: 'stnew',
        action: 'create',
        outcome: 'failed',
        reason: 'ReconcileError: quota exceeded',
        at: '2026-11-28T10:05:00Z',
      }),
    );
    const button = screen.getByRole('button', { name: 'Notifications, 1 new' });
    fireEvent.click(button);
    const items = screen.getAllByRole('menuitem');
    expect(items[0]).toHaveTextContent('Create of stnew failed');
    expect(items[0]).toHaveTextContent('ReconcileError: quota exceeded');
    expect(items[0]).toHaveAttribute('href', '/resources/stnew');
    expect(items[1]).toHaveTextContent('Create of stold completed');
    // Opening the list marks them seen (the menu hides the rest of the page from assistive technology meanwhile).
    expect(screen.getByRole('button', { name: 'Notifications', hidden: true })).toBeInTheDocument();
  });
});
