// Part of `npm run build`: writes ReDoc's bundle, as /redoc serves it, to dist/redoc.standalone.js,
// so the production server needs neither the `redoc` package nor its dependencies and peers.
//   node --import tsx scripts/redoc-bundle.ts
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { redocBundleFromPackage } from '../src/routes/redoc-bundle.js';

const target = fileURLToPath(new URL('../dist/redoc.standalone.js', import.meta.url));
await writeFile(target, await redocBundleFromPackage());
console.log(`wrote ${target}`);
