import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/**
 * ReDoc's standalone bundle, the one file of the `redoc` package that /redoc serves. `redoc` (with
 * its peers) is a devDependency: `npm run build` writes the bundle next to the compiled server
 * (scripts/redoc-bundle.ts), and a server run from the sources (tests, tsx) makes it from the package.
 */

/** dist/redoc.standalone.js beside dist/routes/docs.js; absent next to src/routes. */
export const BUILT_REDOC_BUNDLE = new URL('../redoc.standalone.js', import.meta.url);

/** The footer logos ReDoc's bundle loads from Redocly's CDN; the page must work with no internet. */
const REMOTE_LOGOS = ['https://cdn.redoc.ly/redoc/logo-mini.svg', 'https://cdn.redoc.ly/redoc/logo-mini-full.svg'];
/** An empty SVG in place of a logo: nothing is fetched, and the "API docs by" text stays. */
const LOCAL_LOGO = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

/** The bundle with its remote logos replaced; a ReDoc upgrade that moves one fails loudly. */
function withoutRemoteLogo(source: string): string {
  let local = source;
  for (const logo of REMOTE_LOGOS) {
    if (!local.includes(logo)) throw new Error(`redoc bundle: ${logo} not found; check it for remote URLs`);
    local = local.replaceAll(logo, LOCAL_LOGO);
  }
  return local;
}

/** The bundle as /redoc serves it, made from the `redoc` package (at build time, or from the sources). */
export async function redocBundleFromPackage(): Promise<string> {
  const file = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
  return withoutRemoteLogo(await readFile(file, 'utf8'));
}

/** The built bundle when there is one (a production server), else the one made from the package. */
export async function readRedocBundle(): Promise<string> {
  try {
    return await readFile(BUILT_REDOC_BUNDLE, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return redocBundleFromPackage();
  }
}
