import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeleteResourceDialog } from './DeleteResourceDialog';
import { LiveUpdates, useHoldLiveUpdates } from './LiveUpdates';

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

/** A dialog as the page's dialogs are: it tells live updates whether it is open. */
function DialogOnPage({ open }: { open: boolean }) {
  useHoldLiveUpdates(open);
  return null;
}

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
    const dialog = render(<DialogOnPage open />);
    act(() => {
      source().emit('account', { type: 'changed', name: 'sta' });
      vi.advanceTimersByTime(5_000);
    });
    expect(refresh).not.toHaveBeenCalled();
    dialog.rerender(<DialogOnPage open={false} />);
    act(() => void vi.advanceTimersByTime(1_000));
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('does not wait for a dialog that is mounted but closed, nor for one that went away open', () => {
    render(<LiveUpdates since={1} />);
    render(<DialogOnPage open={false} />);
    const gone = render(<DialogOnPage open />);
    gone.unmount();
    act(() => {
      source().emit('account', { type: 'changed', name: 'sta' });
      vi.advanceTimersByTime(1_000);
    });
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('is held by the delete dialog while it is open', () => {
    render(<LiveUpdates since={1} />);
    render(<DeleteResourceDialog name="sta" />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByRole('dialog', { name: 'Delete storage account sta?' })).toBeInTheDocument();
    act(() => {
      source().emit('account', { type: 'changed', name: 'sta' });
      vi.advanceTimersByTime(5_000);
    });
    expect(refresh).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    act(() => void vi.advanceTimersByTime(1_000));
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
