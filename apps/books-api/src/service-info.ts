import { readFileSync } from 'node:fs';

/** Name and version shown by `/` and the OpenAPI document; the version is package.json's. */
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

export const SERVICE_NAME = 'Books Service';
export const SERVICE_VERSION = manifest.version;
