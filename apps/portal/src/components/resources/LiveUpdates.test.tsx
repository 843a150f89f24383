import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveUpdates } from './LiveUpdates';

const refresh = vi.fn();
// Next.js hands every render the same router object.
const router = { refresh };
vi.mock('next/navigation', () => ({ useRouter: () => router }));

/** The part of the browser's EventSource the leaf uses, driven by the test as the server would. */
class FakeEventSource {
  static opened: FakeEventSource[] = [];
  readonly listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(): void {
    this.closed = true;
  }
  emit(type: string, data: unknown = {}): void {
    for (const listener of this.listeners.get(type) ?? []) {
      listener(new MessageEvent(type, { data: JSON.stringify(data) }));
    }
  }
}

beforeEach(() => {
  refresh.mockReset();
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const source = (): FakeEventSource => FakeEventSource.opened[0]!;

describe('live updates', () => {
  it('subscribes from the position the page was rendered at, and asks nothing while nothing changes', () => {
    render(<LiveUpdates since={1234} />);
    expect(source().url).toBe('/api/platform/events?since=1234');
    act(() => void vi.advanceTimersByTime(60_000));
    expect(refresh).not.toHaveBeenCalled();
    act(() => source().emit('open'));
    expect(screen.getByRole('status')).toHaveTextContent('Live');
  });

  it('re-renders the page once for changes that arrive together, and again on a reload', () => {
    render(<LiveUpdates since={1} />);
    act(() => {
      source().emit('account', { type: 'changed', name: 'sta' });
      source().emit('account', { type: 'changed', name: 'stb' });
      vi.advanceTimersByTime(500);
    });
    expect(refresh).toHaveBeenCalledTimes(1);
    act(() => {
      source().emit('reload');
      vi.advanceTimersByTime(500);
    });
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('holds a re-render back while a dialog is open, and makes it once the dialog closes', () => {
    render(<LiveUpdates since={1} />);
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    document.body.append(dialog);
    act(() => {
      source().emit('account', { type: 'changed', name: 'sta' });
      vi.advanceTimersByTime(5_000);
    });
    expect(refresh).not.toHaveBeenCalled();
    dialog.remove();
    act(() => void vi.advanceTimersByTime(1_000));
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('does not wait for a dialog the page keeps mounted but hidden, as the closed navigation drawer', () => {
    render(<LiveUpdates since={1} />);
    const drawer = document.createElement('div');
    drawer.setAttribute('role', 'dialog');
    drawer.style.visibility = 'hidden';
    document.body.append(drawer);
    act(() => {
      source().emit('account', { type: 'changed', name: 'sta' });
      vi.advanceTimersByTime(1_000);
    });
    drawer.remove();
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it("on an account's page, follows only that account", () => {
    render(<LiveUpdates since={1} account="stmine" />);
    act(() => {
      source().emit('account', { type: 'changed', name: 'stother' });
      vi.advanceTimersByTime(500);
    });
    expect(refresh).not.toHaveBeenCalled();
    act(() => {
      source().emit('account', { type: 'deleted', name: 'stmine' });
      vi.advanceTimersByTime(500);
    });
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('keeps one connection across re-renders, stops at sign-out, and closes when the page goes', () => {
    const { rerender, unmount } = render(<LiveUpdates since={1} />);
    rerender(<LiveUpdates since={99} />);
    expect(FakeEventSource.opened).toHaveLength(1);
    act(() => source().emit('signed-out'));
    expect(source().closed).toBe(true);
    unmount();
    expect(FakeEventSource.opened).toHaveLength(1);
  });
});
