import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.gen.js';

export type { components, operations, paths } from './schema.gen.js';

/** A typed client of the Books API: paths, parameters, bodies and answers come from the OpenAPI document. */
export function createBooksClient(baseUrl: string): Client<paths> {
  return createClient<paths>({ baseUrl });
}
