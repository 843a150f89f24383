import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appsWithSources, importCycleProblems, importCycles } from '../src/index.js';

test('no app has an import cycle in its src/ but those being taken apart', () => {
  assert.ok(appsWithSources().length >= 2, 'both apps are checked');
  assert.deepEqual(importCycleProblems(), []);
});

test('a cycle is found however long it is, and a file that imports itself is one', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a', 'd']],
    ['d', []],
    ['e', ['e']],
    ['f', ['d']],
  ]);
  assert.deepEqual(importCycles(graph), [['a', 'b', 'c'], ['e']]);
});
