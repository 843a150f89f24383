import { describe, expect, it } from 'vitest';
import { seal, unseal } from './sealed-token';

const secret = 'a-test-secret-that-is-long-enough-for-the-portal';
const later = () => new Date(Date.now() + 60_000);

describe('sealed cookie tokens', () => {
  it('opens what it sealed, with the same secret and purpose', async () => {
    const token = await seal({ sid: 'abc' }, { secret, purpose: 'session', expiresAt: later() });
    expect((await unseal(token, { secret, purpose: 'session' }))?.sid).toBe('abc');
    expect(token).not.toContain('abc');
  });

  it('refuses a token sealed with another secret or for another purpose', async () => {
    const token = await seal({ sid: 'abc' }, { secret, purpose: 'session', expiresAt: later() });
    expect(await unseal(token, { secret: `${secret}-rotated`, purpose: 'session' })).toBeUndefined();
    expect(await unseal(token, { secret, purpose: 'sign-in' })).toBeUndefined();
  });

  it('refuses a tampered token', async () => {
    const token = await seal({ sid: 'abc' }, { secret, purpose: 'session', expiresAt: later() });
    const parts = token.split('.');
    const cipher = parts[3] ?? '';
    parts[3] = `${cipher.slice(0, -2)}${cipher.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await unseal(parts.join('.'), { secret, purpose: 'session' })).toBeUndefined();
    expect(await unseal('not-a-token', { secret, purpose: 'session' })).toBeUndefined();
  });

  it('refuses an expired token', async () => {
    const token = await seal({ sid: 'abc' }, { secret, purpose: 'session', expiresAt: new Date(Date.now() - 1000) });
    expect(await unseal(token, { secret, purpose: 'session' })).toBeUndefined();
  });
});
