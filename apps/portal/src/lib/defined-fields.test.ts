import { describe, expect, it } from 'vitest';
import { definedFields } from './defined-fields';

describe('definedFields', () => {
  it('leaves out undefined fields and keeps every other value, false, empty and null included', () => {
    const record = { a: 'x', b: undefined, c: false, d: '', e: 0, f: null, g: [] as string[] };
    const result = definedFields(record);
    expect(Object.keys(result)).toEqual(['a', 'c', 'd', 'e', 'f', 'g']);
    expect(result).toEqual({ a: 'x', c: false, d: '', e: 0, f: null, g: [] });
    expect(result.g).toBe(record.g);
  });

  it('builds a new record and leaves the one it was given alone', () => {
    const record = { a: 1, b: undefined };
    const result = definedFields(record);
    expect(result).not.toBe(record);
    expect(Object.keys(record)).toEqual(['a', 'b']);
  });
});
