import fp from 'fastify-plugin';
import {
  compileRequestValidator,
  createRequestAjv,
  fastifyValidationOff,
  validationHook,
  type RouteSchemas,
} from '../../validation/request-validator.js';

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

    fastify.setValidatorCompiler(fastifyValidationOff);

    const resolve = (schema: unknown): unknown => {
      const ref = (schema as { $ref?: unknown } | undefined)?.$ref;
      return typeof ref === 'string' ? fastify.getSchema(ref.replace(/#$/, '')) : schema;
    };

    fastify.addHook('onRoute', function attachRequestValidator(route) {
      const schema: RouteSchemas | undefined = route.schema;
      if (schema === undefined) return;
      const validator = compileRequestValidator(ajv, schema, { resolve });
      if (validator === undefined) return;
      const validate = validationHook(validator);
      const existing = route.preValidation;
      route.preValidation = existing === undefined ? [validate] : [validate, ...[existing].flat()];
    });
  },
  { name: 'validation' },
);
