import FindMyWay, { type HTTPMethod, type HTTPVersion } from 'find-my-way';
import fp from 'fastify-plugin';
import { hasEmptyParameter } from './not-found.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The methods routed for a path (empty when no route matches it at all). */
    allowedMethods(url: string): string[];
  }
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const byMethodOrder = (a: string, b: string) =>
  (METHOD_ORDER.indexOf(a) + 1 || 99) - (METHOD_ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b);

/**
 * A second router that only knows which methods each path has, fed by every route
 * registered after this plugin (with the HEAD head-routes.ts gives some GET routes), so a wrong
 * method on a known path becomes a 405 with an exact Allow header.
 */
export default fp(
  async (fastify) => {
    const router = FindMyWay<HTTPVersion.V1>();
    const methods = new Set<HTTPMethod>();
    fastify.addHook('onRoute', function recordRouteMethods(route) {
      for (const method of [route.method].flat().map((name) => name.toUpperCase() as HTTPMethod)) {
        if (router.hasRoute(method, route.url)) continue;
        router.on(method, route.url, () => {});
        methods.add(method);
      }
    });
    fastify.decorate('allowedMethods', (url: string) => {
      const path = url.split('?', 1)[0]!;
      const routed = (method: HTTPMethod) => {
        try {
          const found = router.find(method, path);
          return found !== null && !hasEmptyParameter(found.params);
        } catch {
          return false; // a path the router cannot even decode matches nothing
        }
      };
      return [...methods].filter(routed).sort(byMethodOrder);
    });
  },
  { name: 'route-registry' },
);
