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

/** pino's lines start with `{"level":NN`; warn is 40, error 50, fatal 60. */
const LEVEL_START = '{"level":'.length;
const ERROR_LEVEL = 50;

const isDigit = (code: number) => code >= 48 && code <= 57;

/** The level of a pino line, or Infinity for anything else. */
function levelOf(line: string): number {
  if (!line.startsWith('{"level":')) return Number.POSITIVE_INFINITY;
  // The usual two-digit level by character codes: this runs for every line, and slice plus
  // parseInt was most of the stream's own cost.
  const tens = line.charCodeAt(LEVEL_START);
  const units = line.charCodeAt(LEVEL_START + 1);
  if (isDigit(tens) && isDigit(units) && line.charCodeAt(LEVEL_START + 2) === 44 /* , */) {
    return (tens - 48) * 10 + (units - 48);
  }
  // Custom levels of another width.
  return Number.parseInt(line.slice(LEVEL_START, LEVEL_START + 4), 10);
}

/**
 * A stream in front of the log destination that gathers lines and writes them together:
 * one write system call per few kilobytes instead of one per request. A line at error
 * level or above is written at once with everything before it, a quiet period never
 * holds a line longer than `maxDelayMs`, and whatever is pending is written when the
 * process exits (normally, by `process.exit` or after an uncaught exception), since every
 * destination write is synchronous.
 */
export class LogBatchingStream {
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

  write(line: string): boolean {
    this.#pending += line;
    if (this.#pending.length >= this.#batchSize || levelOf(line) >= ERROR_LEVEL) this.flush();
    else this.#flushLater();
    return true;
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
