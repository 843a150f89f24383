import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { searchFold } from '../../src/store/search-fold.js';

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
