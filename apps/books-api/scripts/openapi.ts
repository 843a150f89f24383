// The OpenAPI document as the server serves it, for the linters and the typed client:
//   node --import tsx scripts/openapi.ts write <dir>   openapi.json and openapi-auth-required.json in <dir>
//   node --import tsx scripts/openapi.ts client        regenerates client/schema.gen.ts from the document
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLIENT_SCHEMA_FILE, clientSchemaSource, servedDocument } from '../client/generate.js';

const [command, target] = process.argv.slice(2);
if (command === 'write' && target !== undefined) {
  await mkdir(target, { recursive: true });
  await writeFile(join(target, 'openapi.json'), JSON.stringify(await servedDocument(), null, 2));
  // AUTH_REQUIRED puts the bearer scheme on every books operation: lint that variant too.
  const authRequired = await servedDocument({ authRequired: true });
  await writeFile(join(target, 'openapi-auth-required.json'), JSON.stringify(authRequired, null, 2));
} else if (command === 'client') {
  await writeFile(CLIENT_SCHEMA_FILE, await clientSchemaSource());
  console.log(`wrote ${CLIENT_SCHEMA_FILE}`);
} else {
  console.error('usage: openapi.ts write <dir> | client');
  process.exit(2);
}
