import type { FastifyBaseLogger, FastifyReply, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';

type SendContinuation = (error: Error | null, payload: unknown) => void;

/**
 * Holds the responses answered during one turn of the event loop and lets them all be written
 * when the turn's I/O callbacks have run (a `setImmediate`: the check phase, right after poll).
 *
 * Under load one turn reads many requests from many connections. Written one by one, each
 * response wakes its client as it goes out, and on this kind of host (a virtual machine whose
 * idle CPUs halt at once) the sender pays for every wake-up inside its `writev`
 * (docs/performance.md, "Responses written together"). Written together, a client with several connections is woken
 * once for all of them. A response waits at most for the rest of its turn; alone, it waits
 * only for the hop from the poll phase to the check phase.
 */
class TurnBatch {
  /** Flat triples (continuation, payload, reply): queueing a response allocates nothing. */
  #held: unknown[] = [];
  readonly #log: FastifyBaseLogger;

  constructor(log: FastifyBaseLogger) {
    this.#log = log;
  }

  /** Fastify's onSend hook, callback style: the response continues when the turn ends. */
  readonly hold: onSendHookHandler = (_request, reply, payload, done) => {
    if (this.#held.length === 0) setImmediate(this.#release);
    this.#held.push(done, payload, reply);
  };

  readonly #release = (): void => {
    // Swapped first: a response held while these are written starts a batch of its own.
    const held = this.#held;
    this.#held = [];
    for (let index = 0; index < held.length; index += 3) {
      const reply = held[index + 2] as FastifyReply;
      try {
        (held[index] as SendContinuation)(null, held[index + 1]);
      } catch (error) {
        // Written synchronously, the error would have reached the caller of reply.send; here
        // nobody is left to answer it, and the other responses of the batch must still go out.
        this.#log.error({ err: error, reqId: reply.request.id }, 'writing a response failed');
        reply.raw.destroy();
      }
    }
  };
}

export interface ResponseWriteBatchingOptions {
  /** RESPONSE_WRITE_BATCHING: off writes each response as soon as it is ready. */
  enabled: boolean;
}

/** Every response of the app, errors and 404s included, is written at the end of its turn. */
export default fp<ResponseWriteBatchingOptions>(
  async (fastify, { enabled }) => {
    if (!enabled) return;
    fastify.addHook('onSend', new TurnBatch(fastify.log).hold);
  },
  { name: 'response-write-batching' },
);
