import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePythonInt } from '../../src/validation/python-int.js';

// Each expectation is what CPython's int(text) gives (a value, or ValueError as undefined).
describe("parsePythonInt reads text as Python's int()", () => {
  const accepted: [string, bigint][] = [
    ['503', 503n],
    ['+503', 503n],
    ['-503', -503n],
    ['-0', 0n],
    ['0503', 503n],
    [' 503 ', 503n],
    ['\t\n\v\f\r503\r\n', 503n],
    ['5_03', 503n],
    ['0_5_0_3', 503n],
    ['\u00a0503\u3000', 503n],
    ['\u0085503\u2028', 503n],
    ['٥٠٣', 503n],
    ['５０３', 503n],
    ['𝟓𝟎𝟑', 503n],
    ['𝟗𝟶', 90n],
    ['5٣', 53n],
    ['99999999999999999999999', 99999999999999999999999n],
    ['1'.repeat(4300), BigInt('1'.repeat(4300))],
    ['1_'.repeat(4299) + '1', BigInt('1'.repeat(4300))],
  ];
  for (const [text, value] of accepted) {
    it(`accepts ${JSON.stringify(text.slice(0, 24))}`, () => assert.equal(parsePythonInt(text), value));
  }

  const refused = [
    '',
    ' ',
    '+',
    '-',
    '+-503',
    '- 503',
    '5 03',
    '5\u00a003',
    '_503',
    '503_',
    '5__03',
    '+_503',
    '503.0',
    '5e2',
    '0x1f7',
    '0b1',
    'Infinity',
    'NaN',
    '\u001c503',
    '\ufeff503',
    '\u200b503',
    '᧚',
    '503, 500',
    '1'.repeat(4301),
    '0'.repeat(4301) + '5',
    '1_'.repeat(4300) + '1',
  ];
  for (const text of refused) {
    it(`refuses ${JSON.stringify(text.slice(0, 24))}`, () => assert.equal(parsePythonInt(text), undefined));
  }
});
