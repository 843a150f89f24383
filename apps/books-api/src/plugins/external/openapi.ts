import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';
import { SERVICE_NAME, SERVICE_VERSION } from '../../service-info.js';
import { documentForcedErrors } from '../app/chaos.js';

/**
 * The OpenAPI 3.1 document, generated from the routes' schemas (never written by hand).
 * Shared schemas keep their $id as their component name so `$ref`s read well.
 */
export default fp(
  async (fastify) => {
    await fastify.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: SERVICE_NAME,
          version: SERVICE_VERSION,
          description: 'A books catalog REST API with pagination, search and partial update.',
        },
        tags: [
          { name: 'books', description: 'The books resource' },
          { name: 'monitoring', description: 'Health and status checks' },
          { name: 'meta', description: 'Service metadata' },
          { name: 'auth', description: 'Token login (OAuth 2.0 password grant)' },
        ],
        components: {
          securitySchemes: {
            // The "Authorize" button of /docs posts the password form to /token and sends the token.
            OAuth2PasswordBearer: { type: 'oauth2', flows: { password: { tokenUrl: '/token', scopes: {} } } },
          },
        },
      },
      // Documentation only: adds X-Force-Error and the forced responses to the routes chaos covers.
      transform: ({ schema, url, route }) => ({ schema: documentForcedErrors(route, schema) ?? schema, url }),
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, index) =>
          typeof json.$id === 'string' ? json.$id : `def-${index}`,
      },
    });
  },
  { name: 'openapi' },
);
