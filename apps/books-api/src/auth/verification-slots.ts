/** Thrown by `VerificationSlots.run` when every slot is busy and the queue is full. */
export class VerificationQueueFullError extends Error {
  constructor() {
    super('Too many password verifications waiting');
    this.name = 'VerificationQueueFullError';
  }
}

export interface VerificationSlotSettings {
  /** Verifications running at once; each argon2id verification holds its memory cost while it runs. */
  readonly maxConcurrent: number;
  /** Verifications allowed to wait for a slot; more are refused at once. */
  readonly maxQueued: number;
}

interface VerificationSlots {
  /** Runs `task` when a slot is free (in arrival order); throws VerificationQueueFullError when the queue is full. */
  run<T>(task: () => Promise<T>): Promise<T>;
}

/**
 * Bounds the password verifications of this process, so a flood of logins costs at most
 * maxConcurrent × the argon2id memory cost, plus a short queue, never unbounded memory.
 */
export function createVerificationSlots(settings: VerificationSlotSettings): VerificationSlots {
  let running = 0;
  const waiting: (() => void)[] = [];

  const acquire = (): Promise<void> => {
    if (running < settings.maxConcurrent) {
      running += 1;
      return Promise.resolve();
    }
    if (waiting.length >= settings.maxQueued) return Promise.reject(new VerificationQueueFullError());
    // The slot is handed over by release(): `running` stays the same.
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = (): void => {
    const next = waiting.shift();
    if (next === undefined) running -= 1;
    else next();
  };

  return {
    async run(task) {
      await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
