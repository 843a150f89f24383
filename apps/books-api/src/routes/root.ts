import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { errorResponses } from '../schemas/errors.js';
import { SERVICE_NAME, SERVICE_VERSION } from '../service-info.js';

const root: FastifyPluginAsyncTypebox = async (fastify) => {
  const { config } = fastify;
  fastify.get(
    '/',
    {
      schema: {
        operationId: 'root',
        summary: 'Service metadata',
        description: 'The service name and version, the documentation addresses and which demo switches are on.',
        tags: ['meta'],
        response: {
          200: { ...Type.Ref('RootInfo'), description: 'Name, version and documentation addresses' },
          ...errorResponses.methodNotAllowed,
        },
      },
    },
    async () => ({
      name: SERVICE_NAME,
      version: SERVICE_VERSION,
      docs_url: '/docs',
      redoc_url: '/redoc',
      openapi_url: '/openapi.json',
      traffic_generator_enabled: config.trafficGeneratorEnabled,
      chaos_headers_enabled: config.chaosHeadersEnabled,
    }),
  );
};

export default root;
