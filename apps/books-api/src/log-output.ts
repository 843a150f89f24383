import type { EventEmitter } from 'node:events';
import pino, { type Logger } from 'pino';

/** The pino destination's public side: a stream that ends, and says when it closed or failed. */
type Destination = EventEmitter & { end?: () => void };

/**
 * Where the logger writes (stdout), watched for the end of its reader. When a write fails with
 * EPIPE (the parent that held the pipe died, the log collector went away) pino stops writing, and
 * `closed` resolves so the server can stop too. Errors of process.stdout and process.stderr
 * themselves count the same way, and an error of another kind is thrown as it would be without
 * these listeners.
 */
export class LogOutput {
  readonly closed: Promise<void>;
  #isClosed = false;
  readonly #destination: Destination;

  constructor(logger: Logger) {
    // pino.symbols is pino's documented way to reach a logger's destination.
    this.#destination = (logger as unknown as Record<symbol, Destination>)[pino.symbols.streamSym]!;
    this.closed = new Promise((resolve) => {
      const onError = (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE') throw error;
        this.#isClosed = true;
        resolve();
      };
      for (const stream of new Set<EventEmitter>([this.#destination, process.stdout, process.stderr])) {
        stream.on('error', onError);
      }
    });
  }

  /**
   * Writes the lines the destination still holds and ends it; resolves once that is done, the pipe
   * turned out closed, or after `timeoutMs`. Call it before process.exit: pino would otherwise write
   * those lines in its exit handler, whose synchronous retry never gives up on a closed pipe.
   */
  end(timeoutMs: number): Promise<void> {
    const destination = this.#destination;
    if (this.#isClosed || typeof destination.end !== 'function') return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      destination.once('close', done);
      void this.closed.then(done);
      try {
        destination.end!();
      } catch {
        done(); // already ended
      }
    });
  }
}
