import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/**
 * ReDoc's standalone bundle, the one file of the `redoc` package that /redoc serves. `redoc` (63
 * packages) is a devDependency: `npm run build` writes the bundle next to the compiled server
 * (scripts/redoc-bundle.ts), and a server run from the sources (tests, tsx) makes it from the package.
 */

/** dist/redoc.standalone.js beside dist/routes/docs.js; absent next to src/routes. */
export const BUILT_REDOC_BUNDLE = new URL('../redoc.standalone.js', import.meta.url);

/** The footer logo ReDoc's bundle loads from Redocly's CDN; the page must work with no internet. */
const REMOTE_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
/** An empty SVG in place of the logo: nothing is fetched, and the "API docs by Redocly" text stays. */
const LOCAL_LOGO = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

/** The bundle with its only remote address replaced; a ReDoc upgrade that moves it fails loudly. */
function withoutRemoteLogo(source: string): string {
  if (!source.includes(REMOTE_LOGO))
    throw new Error(`redoc bundle: ${REMOTE_LOGO} not found; check it for remote URLs`);
  return source.replaceAll(REMOTE_LOGO, LOCAL_LOGO);
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
