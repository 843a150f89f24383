/**
 * FastAPI's default operationId (`generate_unique_id`): the endpoint's function name, then
 * its path with every non-word character replaced by `_`, then the method in lower case,
 * e.g. `list_books_api_v1_books_get`. Generated clients then get FastAPI's method names.
 */
export function fastapiOperationId(name: string, url: string, method: string): string {
  // Fastify writes a path parameter as `:book_id`, FastAPI as `{book_id}`.
  const path = url.replace(/:(\w+)/g, '{$1}');
  return `${name}${path}`.replace(/\W/g, '_') + `_${method.toLowerCase()}`;
}
