import 'server-only';
import type { EventEmitter } from 'node:events';

/**
 * How the server process ends when what surrounds it goes away, whatever its dependencies (the
 * cluster, the database, a slow client) are doing at the time.
 *
 * A closed log stream: when the parent process dies, stdout and stderr become pipes nobody reads,
 * and every write fails with EPIPE. Unhandled, that error reaches Next's uncaughtException
 * listener, which writes it to stderr, which fails again: a loop of process.nextTick callbacks
 * that keeps a core busy and never lets the event loop reach the SIGTERM handler. A process that
 * can no longer log cannot be watched either, so it exits at the first failed write.
 *
 * A termination signal: Next stops accepting connections and exits once the requests in flight
 * have finished, which a request waiting on a stalled dependency or a slow client may never do.
 * After SHUTDOWN_GRACE_MS the process exits anyway, well inside Kubernetes' default 30 s grace.
 */
export const SHUTDOWN_GRACE_MS = 10_000;
/** The exit code when the log stream closed: not a requested stop, so not 0. */
export const OUTPUT_CLOSED_EXIT_CODE = 1;
/** 128 + SIGTERM's number, as Next itself exits after a SIGTERM. */
export const SIGNAL_EXIT_CODE = 143;

type Exit = (code: number) => void;

/** Exits at the first error of any of the process's output streams (EPIPE, a destroyed stream). */
export function exitWhenOutputCloses(streams: readonly EventEmitter[], exit: Exit): void {
  let exiting = false;
  const onError = () => {
    if (exiting) return;
    exiting = true;
    exit(OUTPUT_CLOSED_EXIT_CODE);
  };
  for (const stream of streams) stream.on('error', onError);
}

/**
 * After SIGTERM or SIGINT, exits once `graceMs` has passed, should the graceful shutdown not have
 * ended the process by then. The timer does not keep the process alive by itself.
 */
export function exitAfterSignalGrace(
  signals: Pick<NodeJS.Process, 'once'>,
  graceMs: number,
  exit: Exit,
  onForced: (graceMs: number) => void = () => {},
): void {
  let armed = false;
  const arm = () => {
    if (armed) return;
    armed = true;
    setTimeout(() => {
      onForced(graceMs);
      exit(SIGNAL_EXIT_CODE);
    }, graceMs).unref();
  };
  signals.once('SIGTERM', arm);
  signals.once('SIGINT', arm);
}
