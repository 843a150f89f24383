import { describe, expect, it } from 'vitest';
import { SharedValues } from './shared-values';

describe('SharedValues', () => {
  it('hands out the first instance of a value for every equal one after it', () => {
    const shared = new SharedValues();
    const first = { tier: 'Standard', ranges: ['203.0.113.0/24'] };
    expect(shared.share(first)).toBe(first);
    expect(shared.share({ tier: 'Standard', ranges: ['203.0.113.0/24'] })).toBe(first);
    const other = { tier: 'Premium', ranges: ['203.0.113.0/24'] };
    expect(shared.share(other)).toBe(other);
    expect(shared.size).toBe(2);
  });

  it('freezes what it shares, nested objects and arrays included, so no holder can change it for the others', () => {
    const shared = new SharedValues();
    const value = shared.share({ sync: { reasons: [] as string[] }, fields: ['location'] });
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.sync)).toBe(true);
    expect(Object.isFrozen(value.sync.reasons)).toBe(true);
    expect(() => value.fields.push('tier')).toThrow(TypeError);
  });

  it('tells values apart by every field, arrays by their order', () => {
    const shared = new SharedValues();
    const a = shared.share({ ranges: ['a', 'b'] });
    expect(shared.share({ ranges: ['b', 'a'] })).not.toBe(a);
    expect(shared.share({ ranges: ['a', 'b'], extra: false })).not.toBe(a);
  });
});
