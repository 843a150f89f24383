import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AutoRefresh } from './AutoRefresh';

const refresh = vi.fn();
vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh }) }));

beforeEach(() => {
  refresh.mockReset();
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('automatic refresh while resources change', () => {
  it('re-renders the server data periodically while active, and says so', () => {
    render(<AutoRefresh active intervalMs={1000} />);
    expect(screen.getByRole('status')).toHaveTextContent('Updating automatically');
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    expect(refresh).toHaveBeenCalledTimes(3);
  });

  it('stops once everything has settled', () => {
    const { rerender } = render(<AutoRefresh active intervalMs={1000} />);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    rerender(<AutoRefresh active={false} intervalMs={1000} />);
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('status')).toBeNull();
  });
});
