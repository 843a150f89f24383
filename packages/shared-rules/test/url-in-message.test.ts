import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gotUrl, urlInMessage } from '../src/index.js';

test('a URL is quoted without its user, password, query and fragment', () => {
  assert.equal(
    urlInMessage('postgres://portal:s3cret@db.example:5432/portal?password=s3cret#x'),
    'postgres://db.example:5432/portal',
  );
  assert.equal(urlInMessage(' https://user:pw@management.example.com/ '), 'https://management.example.com');
  assert.equal(gotUrl('http://alice:pw@login.example.com/realm'), ', got "http://login.example.com/realm"');
});

test('a value that is no URL with a host is not quoted at all, whatever it holds', () => {
  for (const raw of [
    'postgres://portal:s3cret@db.example:notaport/portal',
    'portal:s3cret@db.example/portal',
    'postgres:/portal:s3cret@db.example/portal',
    'postgres://db.example/portal:s3cret@x',
    'not a url s3cret',
    '',
  ]) {
    assert.equal(urlInMessage(raw), undefined, raw);
    assert.doesNotMatch(gotUrl(raw), /s3cret/, raw);
  }
});
