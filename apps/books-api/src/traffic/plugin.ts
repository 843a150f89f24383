import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createTrafficGenerator, type TrafficGenerator } from './generator.js';
import { selfBaseUrl } from './self-url.js';

export interface TrafficGeneratorPluginOptions {
  readonly enabled: boolean;
  /** Overrides the 0.5–1.5 s jitter; tests use it to avoid waiting. */
  readonly nextDelayMs?: () => number;
}

// The generator is tied to the server's lifecycle rather than started by hand: it starts only
// once the server really listens (so inject-only tests never send traffic) and it is stopped
// in preClose, before the server stops accepting connections, so no request is sent after close.
async function trafficGeneratorPlugin(app: FastifyInstance, options: TrafficGeneratorPluginOptions) {
  if (!options.enabled) return;

  const log = app.log.child({ component: 'traffic-generator' });
  let generator: TrafficGenerator | undefined;

  app.addHook('onListen', async function startTrafficGenerator() {
    const baseUrl = selfBaseUrl(app.server.address());
    if (baseUrl === undefined) {
      log.warn('traffic generator not started: the server does not listen on a TCP address');
      return;
    }
    generator = createTrafficGenerator({ baseUrl, logger: log, nextDelayMs: options.nextDelayMs });
    generator.start();
    log.info({ baseUrl }, 'traffic generator started');
  });

  app.addHook('preClose', async function stopTrafficGenerator() {
    if (generator === undefined) return;
    await generator.stop();
    generator = undefined;
    log.info('traffic generator stopped');
  });
}

export default fp(trafficGeneratorPlugin, { name: 'traffic-generator', fastify: '5.x' });
