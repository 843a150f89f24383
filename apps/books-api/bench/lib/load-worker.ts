// One load run in a process of its own, so two servers can be loaded at the same time by
// two independent load generators (`npm run bench -- --compare`). Reads its LoadOptions as
// JSON from argv[2] and prints the LoadResult as JSON on its last stdout line.

import { runLoad, type LoadOptions } from './load.js';

const options = JSON.parse(process.argv[2] ?? '{}') as LoadOptions;
const result = await runLoad(options);
process.stdout.write(`${JSON.stringify(result)}\n`);
