import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseUuid } from '../../src/validation/uuid.js';

const CANONICAL = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

test('parseUuid accepts the forms Pydantic accepts and normalises them', () => {
  for (const text of [
    CANONICAL,
    CANONICAL.toUpperCase(),
    CANONICAL.replaceAll('-', ''),
    `{${CANONICAL}}`,
    `urn:uuid:${CANONICAL}`,
  ]) {
    assert.deepEqual(parseUuid(text), { ok: true, value: CANONICAL }, text);
  }
  const simple = CANONICAL.replaceAll('-', '');
  for (const text of [`{${simple}}`, `urn:uuid:${simple}`, `${CANONICAL} `, CANONICAL.replace('-', '')]) {
    assert.equal(parseUuid(text).ok, false, text);
  }
});

test('parseUuid words rejections like the uuid crate, positions in bytes from 1', () => {
  const reason = (text: string) => {
    const result = parseUuid(text);
    assert.equal(result.ok, false);
    return result.ok ? '' : result.reason;
  };
  assert.equal(reason(''), 'invalid length: expected length 32 for simple format, found 0');
  assert.equal(
    reason('é3fa'),
    'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `é` at 1',
  );
  assert.equal(
    reason('ab😀g'),
    'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `😀` at 3',
  );
  assert.equal(
    reason('abé-g'),
    'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `é` at 3',
  );
  assert.equal(reason('{3fa85f64}'), 'invalid group count: expected 5, found 1');
  assert.equal(
    reason('3fa85f64-5717-4562-b3fc-2c963f66afa6a'),
    'invalid group length in group 4: expected 12, found 13',
  );
  assert.equal(reason('3fa85f64-57175-562-b3fc-2c963f66afa6'), 'invalid group length in group 1: expected 4, found 5');
});
