import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exitAfterSignalGrace, exitWhenOutputCloses, OUTPUT_CLOSED_EXIT_CODE, SIGNAL_EXIT_CODE } from './exit-guards';

afterEach(() => vi.useRealTimers());

describe('exit guards', () => {
  it('exits once, with a non-zero code, at the first error of stdout or stderr', () => {
    const stdout = new EventEmitter();
    const stderr = new EventEmitter();
    const exit = vi.fn();
    exitWhenOutputCloses([stdout, stderr], exit);
    const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    // Without a listener this emit would throw: the error would become an uncaught exception.
    expect(() => stderr.emit('error', epipe)).not.toThrow();
    stdout.emit('error', epipe);
    expect(exit).toHaveBeenCalledTimes(1);
    expect(exit).toHaveBeenCalledWith(OUTPUT_CLOSED_EXIT_CODE);
    expect(OUTPUT_CLOSED_EXIT_CODE).not.toBe(0);
  });

  it('exits after the grace period once SIGTERM or SIGINT came, and not before', () => {
    vi.useFakeTimers();
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const signals = new EventEmitter();
      const exit = vi.fn();
      const forced = vi.fn();
      exitAfterSignalGrace(signals as unknown as Pick<NodeJS.Process, 'once'>, 2000, exit, forced);
      vi.advanceTimersByTime(5000);
      expect(exit).not.toHaveBeenCalled();
      signals.emit(signal);
      signals.emit('SIGTERM');
      vi.advanceTimersByTime(1999);
      expect(exit).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(exit).toHaveBeenCalledTimes(1);
      expect(exit).toHaveBeenCalledWith(SIGNAL_EXIT_CODE);
      expect(forced).toHaveBeenCalledWith(2000);
    }
  });
});
