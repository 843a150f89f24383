import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { SEARCH_FOLD_VERSION, searchFold } from '../../src/store/search-fold.js';

// Expected values are what Python's str.casefold() returns for the same text.
describe('searchFold folds like Python casefold()', () => {
  const cases: [string, string, string][] = [
    ['ASCII letters', 'Clean CODE 2008', 'clean code 2008'],
    ['sharp s expands to ss', 'Straße', 'strasse'],
    ['capital sharp s expands to ss', 'ẞ', 'ss'],
    ['STRASSE meets Straße', 'STRASSE', 'strasse'],
    ['Turkish dotted capital I keeps its dot as a combining mark', 'İstanbul', 'i\u0307stanbul'],
    ['Turkish dotless i is left alone (no Turkic folding)', 'ıi', 'ıi'],
    ['Greek capital and final sigma both become σ', 'ΟΔΟΣ οδος', 'οδοσ οδοσ'],
    ['ligature fi', 'ﬁnancial', 'financial'],
    ['ligature ffi', 'ﬃ', 'ffi'],
    ['ligature st', 'ﬆ', 'st'],
    ['n preceded by apostrophe', 'ŉ', 'ʼn'],
    ['Greek with prosgegrammeni', 'ᾈ', 'ἀι'],
    ['Kelvin sign', '\u212a', 'k'],
    ['Cyrillic', 'Дом', 'дом'],
    ['astral Deseret capital', '\u{10400}', '\u{10428}'],
    ['text without case is unchanged', '東京 123', '東京 123'],
  ];
  for (const [name, input, folded] of cases) {
    it(name, () => assert.equal(searchFold(input), folded));
  }
});

describe('SEARCH_FOLD_VERSION', () => {
  // The fingerprint of every code point that searchFold changes, by version. A new folding must
  // come with a new version (the PostgreSQL store re-folds its stored keys when it sees one):
  // add the new version and the fingerprint this test prints.
  const fingerprints: Record<number, string> = {
    1: '79a64acbf845e6f164cb3423d914b737c3cd3fe8cbc5bc552e108c8003793d1f',
  };

  it('changes whenever the folding of any code point changes', () => {
    const hash = createHash('sha256');
    for (let code = 0; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue; // lone surrogates are not text
      const character = String.fromCodePoint(code);
      const folded = searchFold(character);
      if (folded !== character) hash.update(`${code.toString(16)}:${folded}\n`);
    }
    const fingerprint = hash.digest('hex');
    assert.equal(
      fingerprint,
      fingerprints[SEARCH_FOLD_VERSION],
      `searchFold's output is ${fingerprint}: if the folding changed on purpose, increment SEARCH_FOLD_VERSION`,
    );
  });
});
