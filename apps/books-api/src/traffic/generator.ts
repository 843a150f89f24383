import { randomUUID } from 'node:crypto';
import { pickTrafficRequest, type TrafficRequest } from './request-mix.js';

/** Marks the generator's requests for anything that reads headers (proxies, access logs). */
export const TRAFFIC_USER_AGENT = 'books-traffic-generator/1.0';
/** The server echoes an incoming X-Request-ID into its request log line (`id=traffic-...`). */
export const TRAFFIC_REQUEST_ID_PREFIX = 'traffic-';

export const MIN_DELAY_MS = 500;
export const MAX_DELAY_MS = 1500;
const REQUEST_TIMEOUT_MS = 5000;

/** The subset of a pino logger the generator writes to. */
export interface TrafficLogger {
  debug(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

interface TrafficGeneratorOptions {
  /** Origin of the server the generator talks to, e.g. http://127.0.0.1:8000. */
  readonly baseUrl: string;
  readonly logger: TrafficLogger;
  /** Pause before each request; random jitter between MIN_DELAY_MS and MAX_DELAY_MS by default. */
  readonly nextDelayMs?: () => number;
  readonly pickRequest?: () => TrafficRequest;
  readonly requestTimeoutMs?: number;
}

export interface TrafficGenerator {
  /** Schedules the first request; calling it again has no effect. */
  start(): void;
  /** Cancels the timer, aborts an in-flight request and resolves when nothing is left running. */
  stop(): Promise<void>;
}

export function randomDelayMs(random: () => number = Math.random): number {
  return MIN_DELAY_MS + random() * (MAX_DELAY_MS - MIN_DELAY_MS);
}

export function createTrafficGenerator(options: TrafficGeneratorOptions): TrafficGenerator {
  const { baseUrl, logger } = options;
  const nextDelayMs = options.nextDelayMs ?? (() => randomDelayMs());
  const pickRequest = options.pickRequest ?? (() => pickTrafficRequest());
  const requestTimeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;

  let state: 'idle' | 'running' | 'stopped' = 'idle';
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let abortInFlight: AbortController | undefined;

  function scheduleNext(): void {
    if (state !== 'running') return;
    timer = setTimeout(tick, nextDelayMs());
    // The generator is background noise: it must never be what keeps the process alive.
    timer.unref();
  }

  function tick(): void {
    timer = undefined;
    inFlight = sendOne()
      // sendOne handles its own failures; this only guards against a throwing logger.
      .catch(() => undefined)
      .finally(() => {
        inFlight = undefined;
        scheduleNext();
      });
  }

  async function sendOne(): Promise<void> {
    const request = pickRequest();
    const url = new URL(request.path, baseUrl);
    abortInFlight = new AbortController();
    const signal = AbortSignal.any([abortInFlight.signal, AbortSignal.timeout(requestTimeoutMs)]);
    try {
      const response = await fetch(url, {
        method: request.method,
        headers: { 'user-agent': TRAFFIC_USER_AGENT, 'x-request-id': `${TRAFFIC_REQUEST_ID_PREFIX}${randomUUID()}` },
        redirect: 'manual',
        signal,
      });
      // Drain the body so the keep-alive connection can be reused for the next tick.
      await response.arrayBuffer();
      const fields = { method: request.method, path: request.path, statusCode: response.status };
      if (response.status >= 500) logger.warn(fields, 'traffic generator request got a server error');
      else logger.debug(fields, 'traffic generator request sent');
    } catch (err) {
      // An abort caused by stop() is the normal way to end, not a failure.
      if (state === 'stopped') return;
      logger.warn({ err, method: request.method, path: request.path }, 'traffic generator request failed');
    } finally {
      abortInFlight = undefined;
    }
  }

  return {
    start() {
      if (state !== 'idle') return;
      state = 'running';
      scheduleNext();
    },
    async stop() {
      if (state === 'stopped') return;
      state = 'stopped';
      clearTimeout(timer);
      timer = undefined;
      abortInFlight?.abort();
      await inFlight;
    },
  };
}
