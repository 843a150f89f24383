import { describe, expect, it } from 'vitest';
import { ownValue } from './own-value';

const TABLE: Record<string, string> = { expired: 'Expired', denied: 'Denied' };
const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

describe('lookups of outside values', () => {
  it('finds the table’s own keys', () => {
    expect(ownValue(TABLE, 'expired')).toBe('Expired');
  });

  it.each(INHERITED)('treats %j as unknown', (key) => {
    expect(ownValue(TABLE, key)).toBeUndefined();
  });

  it('treats a missing value as unknown', () => {
    expect(ownValue(TABLE, undefined)).toBeUndefined();
    expect(ownValue(TABLE, null)).toBeUndefined();
  });
});
