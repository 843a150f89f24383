/** Where the batched lines finally go: a synchronous destination, so a flush is complete when it returns. */
export interface SyncDestination {
  write(text: string): unknown;
}

export interface LogBatchingOptions {
  /** Bytes (UTF-16 code units, close enough) gathered before one write. */
  batchSize?: number;
  /** The longest a line waits when traffic is too light to fill a batch. */
  maxDelayMs?: number;
}

/** pino's error level: a line at it or above is written at once. */
const ERROR_LEVEL = 50;

const PINO_METADATA: unique symbol = Symbol.for('pino.metadata');

/**
 * A stream in front of the log destination that gathers lines and writes them together:
 * one write system call per few kilobytes instead of one per request. A line at error
 * level or above is written at once with everything before it, a quiet period never
 * holds a line longer than `maxDelayMs`, and whatever is pending is written when the
 * process exits (normally, by `process.exit` or after an uncaught exception), since every
 * destination write is synchronous.
 */
export class LogBatchingStream {
  /**
   * pino's documented stream metadata (`destination[Symbol.for('pino.metadata')]`): pino sets
   * `lastLevel` before each write, so the level need not be read back out of the line (which
   * would also make V8 copy each line into one flat string before its batch is written).
   */
  readonly [PINO_METADATA] = true;
  /** The level of the line being written, set by pino; a write without one is written at once. */
  lastLevel: number | undefined = undefined;
  #pending = '';
  #timer: NodeJS.Timeout | undefined;
  readonly #destination: SyncDestination;
  readonly #batchSize: number;
  readonly #maxDelayMs: number;

  constructor(destination: SyncDestination, options: LogBatchingOptions = {}) {
    this.#destination = destination;
    this.#batchSize = options.batchSize ?? 4096;
    this.#maxDelayMs = options.maxDelayMs ?? 250;
  }

  /** pino's write: the line's level is in `lastLevel`. */
  write(line: string): boolean {
    this.writeAtLevel(line, this.lastLevel ?? ERROR_LEVEL);
    return true;
  }

  /** A line written without pino (request-line.ts), at its level. */
  writeAtLevel(line: string, level: number): void {
    this.#pending += line;
    if (this.#pending.length >= this.#batchSize || level >= ERROR_LEVEL) this.flush();
    else this.#flushLater();
  }

  /** Writes every pending line now (pino's `logger.flush(callback)` calls this too). */
  flush(callback?: (error?: Error) => void): void {
    if (this.#pending !== '') {
      const text = this.#pending;
      this.#pending = '';
      this.#destination.write(text);
    }
    callback?.();
  }

  #flushLater(): void {
    if (this.#timer === undefined) this.#timer = setTimeout(this.#flushOnTimer, this.#maxDelayMs).unref();
  }

  readonly #flushOnTimer = (): void => {
    this.#timer = undefined;
    this.flush();
  };
}
