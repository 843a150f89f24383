import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../schemas/errors.js';

/**
 * GET /.well-known/jwks.json: the RS256 public key, so other services verify tokens
 * without holding the signing key. With HS256 there is no public key to publish and
 * the route does not exist (404): a verifier pointed at an HS256 server fails loudly.
 */
export default async function jwksRoutes(app: FastifyInstance) {
  const jwk = app.auth.publicJwk;
  if (jwk === undefined) return;
  const document = { keys: [jwk] };
  const schema = {
    operationId: 'jwks',
    summary: 'The public key that verifies tokens (RS256 only)',
    description: 'A JSON Web Key Set with the RS256 public key; the route exists only with JWT_ALGORITHM=RS256.',
    tags: ['auth'],
    response: {
      200: {
        description: 'The key set',
        type: 'object',
        properties: { keys: { type: 'array', items: { type: 'object', additionalProperties: true } } },
      },
      ...errorResponses.methodNotAllowed,
    },
  };
  app.get('/.well-known/jwks.json', { schema }, async (_request, reply) => {
    // Verifiers cache the set; a restart with a new key changes the kid, which makes them refetch.
    reply.header('Cache-Control', 'public, max-age=300');
    return document;
  });
}
