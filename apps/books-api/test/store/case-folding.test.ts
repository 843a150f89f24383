import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { CASE_FOLDING_FILE, caseFoldingSource } from '../../scripts/case-folding-source.js';

test('src/store/case-folding.gen.ts is what scripts/case-folding.ts writes from the Unicode package', async () => {
  assert.equal(
    await readFile(CASE_FOLDING_FILE, 'utf8'),
    await caseFoldingSource(),
    'run: node --import tsx scripts/case-folding.ts (in apps/books-api)',
  );
});
