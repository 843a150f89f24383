import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseIntegerText, parseLaxIntegerText } from '../../src/validation/text-values.js';
import { parseAnyUuidForm, parseUuid } from '../../src/validation/uuid.js';
import { uuidLikeText } from './uuid-texts.js';

// The request path reads `skip=40` and canonical ids without the general parsers; these
// properties hold the shortcuts to the parsers' answers on text built to sit near their edges.

const integerish = fc
  .array(fc.constantFrom(...'0123456789', '0', '9', ' ', '_', '+', '-', '.', 'e', '٣', '\t'), { maxLength: 24 })
  .map((characters) => characters.join(''));

test('the plain-digits shortcut answers as the lax integer parser does', () => {
  fc.assert(
    fc.property(fc.oneof(integerish, fc.stringMatching(/^\d{1,20}$/), fc.string()), (text) => {
      assert.deepEqual(parseIntegerText(text), parseLaxIntegerText(text));
    }),
    { numRuns: 5000 },
  );
  // Both sides of the shortcut's length bound.
  for (const text of ['9'.repeat(15), '9'.repeat(16), '0'.repeat(15), '007']) {
    assert.equal(parseIntegerText(text), parseLaxIntegerText(text), text);
  }
});

test('the canonical-id shortcut answers as the general UUID parser does', () => {
  fc.assert(
    fc.property(fc.oneof(uuidLikeText, fc.string()), (text) => {
      assert.deepEqual(parseUuid(text), parseAnyUuidForm(text));
    }),
    { numRuns: 5000 },
  );
});
