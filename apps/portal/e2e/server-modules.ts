import { register } from 'node:module';

/**
 * Loads a portal server module into a browser test. Server modules start with 'server-only', which
 * throws outside React's server runtime; here it resolves as Next.js resolves it for server code
 * (the react-server condition: an empty module). Import server modules only through this
 * function: a static import would resolve 'server-only' before the hook exists.
 */
const hook = `export async function resolve(specifier, context, next) {
  if (specifier !== 'server-only') return next(specifier, context);
  return next(specifier, { ...context, conditions: [...context.conditions, 'react-server'] });
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

export function importServerModule<T>(path: string): Promise<T> {
  return import(new URL(path, import.meta.url).href) as Promise<T>;
}
