import { describe, expect, it } from 'vitest';
import { decide, owns, type Action, type Principal } from './permissions';

const ISSUER = 'https://login.example.com';
const viewer: Principal = { subject: `${ISSUER}#vera`, identity: 'vera@example.com', role: 'viewer' };
const requester: Principal = {
  subject: `${ISSUER}#rita`,
  identity: 'rita@example.com',
  verifiedEmail: 'rita@example.com',
  role: 'requester',
};
const admin: Principal = { subject: `${ISSUER}#ada`, identity: 'ada@example.com', role: 'admin' };
const ritas = { requestedBy: 'rita@example.com', requestedBySubject: requester.subject };
const adas = { requestedBy: 'ada@example.com', requestedBySubject: admin.subject };

const OWNER_BOUND: Action[] = ['change', 'resync', 'remediate', 'delete'];

describe('permissions', () => {
  it('lets every role read', () => {
    for (const principal of [viewer, requester, admin]) expect(decide(principal, 'read').allowed).toBe(true);
  });

  it('refuses a viewer every change, naming the role needed and the role held', () => {
    for (const action of ['create', ...OWNER_BOUND] as const) {
      const decision = decide(viewer, action, { requestedBySubject: viewer.subject });
      expect(decision.allowed).toBe(false);
      if (!decision.allowed) {
        expect(decision.reason).toContain('requester or admin role');
        expect(decision.reason).toContain('viewer');
        expect(decision.needs).toBe('requester');
      }
    }
  });

  it.each(OWNER_BOUND)('lets a requester %s its own accounts but not someone else’s', (action) => {
    expect(decide(requester, action, ritas).allowed).toBe(true);
    const other = decide(requester, action, adas);
    expect(other.allowed).toBe(false);
    if (!other.allowed) {
      expect(other.reason).toMatch(/admin role.*ada@example.com/);
      expect(other.needs).toBe('admin');
    }
    expect(decide(requester, action, {}).allowed).toBe(false);
  });

  it('lets a requester create, but only an admin adopt', () => {
    expect(decide(requester, 'create').allowed).toBe(true);
    expect(decide(requester, 'adopt').allowed).toBe(false);
    expect(decide(admin, 'adopt').allowed).toBe(true);
  });

  it.each(OWNER_BOUND)('lets an admin %s any account', (action) => {
    expect(decide(admin, action, ritas).allowed).toBe(true);
    expect(decide(admin, action, {}).allowed).toBe(true);
  });
});

describe('ownership', () => {
  it('compares the recorded subject, whatever the recorded display value says', () => {
    // Someone whose display value (or unverified e-mail) equals Rita's is still not Rita.
    const impostor: Principal = { subject: `${ISSUER}#mallory`, identity: 'rita@example.com', role: 'requester' };
    expect(owns(impostor, ritas)).toBe(false);
    expect(owns(requester, ritas)).toBe(true);
    // The same sub at another issuer is another person.
    expect(owns({ ...requester, subject: `https://other.example.com#rita` }, ritas)).toBe(false);
  });

  it('gives an account recorded before subjects to the person whose verified e-mail it names', () => {
    const legacy = { requestedBy: 'Rita@Example.com' };
    expect(owns(requester, legacy)).toBe(true);
    const unverified: Principal = { subject: `${ISSUER}#mallory`, identity: 'mallory', role: 'requester' };
    expect(owns(unverified, legacy)).toBe(false);
    expect(owns({ ...unverified, identity: 'rita@example.com' }, legacy)).toBe(false);
    expect(owns(requester, {})).toBe(false);
  });

  it('never lets a verified e-mail claim an account that records a subject', () => {
    const sameEmail: Principal = { ...requester, subject: `${ISSUER}#rita-second-account` };
    expect(owns(sameEmail, ritas)).toBe(false);
  });
});
