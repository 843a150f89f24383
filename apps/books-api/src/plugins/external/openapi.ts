import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';
import { SERVICE_NAME, SERVICE_VERSION } from '../../service-info.js';
import { completeDocument } from '../../openapi/complete-document.js';
import { fastapiOperationId } from '../../openapi/fastapi-operation-id.js';
import { PASSWORD_SECURITY_SCHEME, passwordSecurityScheme } from '../../openapi/security-schemes.js';
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
          // The repository grants no licence; the identifier says so in SPDX's syntax.
          license: { name: 'Proprietary: no licence granted', identifier: 'LicenseRef-Proprietary' },
          contact: { name: 'Books Service maintainers' },
        },
        // Relative: the document describes whichever address served it (HOST, PORT, a proxy).
        servers: [{ url: '/', description: 'The server that serves this document' }],
        tags: [
          { name: 'books', description: 'The books resource' },
          { name: 'monitoring', description: 'Health and status checks' },
          { name: 'meta', description: 'Service metadata' },
          { name: 'auth', description: 'Token login (OAuth 2.0 password grant)' },
        ],
        components: {
          securitySchemes: { [PASSWORD_SECURITY_SCHEME]: passwordSecurityScheme },
        },
      },
      // Documentation only: adds X-Force-Error and the forced responses to the routes chaos covers,
      // and expands a route's operationId (its FastAPI function name) the way FastAPI does.
      transform: ({ schema, url, route }) => {
        const documented = documentForcedErrors(route, schema) ?? schema;
        const method = [route.method].flat()[0] ?? 'GET';
        // @fastify/swagger suffixes a HEAD route's operationId with '-head' (FastAPI's id has the method already).
        const name = method === 'HEAD' ? documented?.operationId?.replace(/-head$/, '') : documented?.operationId;
        return {
          schema:
            name === undefined ? documented : { ...documented, operationId: fastapiOperationId(name, url, method) },
          url,
        };
      },
      transformObject: (documentObject) =>
        'openapiObject' in documentObject
          ? completeDocument(documentObject.openapiObject)
          : documentObject.swaggerObject,
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, index) =>
          typeof json.$id === 'string' ? json.$id : `def-${index}`,
      },
    });
  },
  { name: 'openapi' },
);
