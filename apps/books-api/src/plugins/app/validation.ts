import type { preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { compileRequestValidator, createRequestAjv, type RouteSchemas } from '../../validation/request-validator.js';

/**
 * Request validation in Pydantic v2's shape. The TypeBox schemas stay on the routes
 * (they drive OpenAPI, serialisation and types), but Fastify's validator is replaced
 * by a no-op and one preValidation hook per route checks the path, the query and the
 * body together (see validation/request-validator.ts). Every route registered after
 * this plugin gets it, including form-bodied routes: a route declares the media types
 * it reads with `schema.consumes` (JSON when absent).
 */
export default fp(
  async (fastify) => {
    const ajv = createRequestAjv();

    fastify.setValidatorCompiler(() => () => true);

    const resolve = (schema: unknown): unknown => {
      const ref = (schema as { $ref?: unknown } | undefined)?.$ref;
      return typeof ref === 'string' ? fastify.getSchema(ref.replace(/#$/, '')) : schema;
    };

    fastify.addHook('onRoute', function attachRequestValidator(route) {
      const schema: RouteSchemas | undefined = route.schema;
      if (schema === undefined) return;
      const validator = compileRequestValidator(ajv, schema, { resolve });
      if (validator === undefined) return;
      // Callback style: validation never waits for anything, so it need not cost a promise
      // and a microtask on every request.
      const validate: preValidationHookHandler = function validateRequest(request, _reply, done) {
        let parts;
        try {
          parts = validator(request.params, request.query, request.body, request.headers['content-type']);
        } catch (error) {
          done(error as Error);
          return;
        }
        if (parts.params !== undefined) request.params = parts.params;
        if (parts.query !== undefined) request.query = parts.query;
        done();
      };
      const existing = route.preValidation;
      route.preValidation = existing === undefined ? [validate] : [validate, ...[existing].flat()];
    });
  },
  { name: 'validation' },
);
