import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSwitch, SWITCH_WORDS_HINT } from '../src/index.js';

test('true, 1, yes and on turn a switch on, in any case and with spaces around', () => {
  for (const word of ['true', '1', 'yes', 'on', 'TRUE', 'Yes', 'oN', '  on  ', '\ttrue\n']) {
    assert.equal(parseSwitch(word), true, JSON.stringify(word));
  }
});

test('false, 0, no and off turn a switch off, in any case and with spaces around', () => {
  for (const word of ['false', '0', 'no', 'off', 'FALSE', 'No', ' OFF ']) {
    assert.equal(parseSwitch(word), false, JSON.stringify(word));
  }
});

test('any other word, and an empty value, is neither on nor off', () => {
  for (const word of ['', '   ', 'y', 'n', 't', 'enabled', '2', 'yes please', 'ja', 'tru']) {
    assert.equal(parseSwitch(word), undefined, JSON.stringify(word));
  }
});

test('the hint names every word in both lists', () => {
  assert.equal(SWITCH_WORDS_HINT, 'true/1/yes/on or false/0/no/off');
});
