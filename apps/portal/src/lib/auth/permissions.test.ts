import { describe, expect, it } from 'vitest';
import { decide, type Principal } from './permissions';

const viewer: Principal = { identity: 'vera@example.com', role: 'viewer' };
const requester: Principal = { identity: 'rita@example.com', role: 'requester' };
const admin: Principal = { identity: 'ada@example.com', role: 'admin' };

describe('permissions', () => {
  it('lets every role read', () => {
    for (const principal of [viewer, requester, admin]) expect(decide(principal, 'read').allowed).toBe(true);
  });

  it('refuses a viewer every change, naming the role needed and the role held', () => {
    for (const action of ['create', 'delete', 'change', 'resync'] as const) {
      const decision = decide(viewer, action, { requestedBy: viewer.identity });
      expect(decision.allowed).toBe(false);
      if (!decision.allowed) {
        expect(decision.reason).toContain('requester or admin role');
        expect(decision.reason).toContain('viewer');
        expect(decision.needs).toBe('requester');
      }
    }
  });

  it('lets a requester create and delete its own accounts but not someone else’s', () => {
    expect(decide(requester, 'create').allowed).toBe(true);
    expect(decide(requester, 'delete', { requestedBy: requester.identity }).allowed).toBe(true);
    const other = decide(requester, 'delete', { requestedBy: admin.identity });
    expect(other.allowed).toBe(false);
    if (!other.allowed) {
      expect(other.reason).toMatch(/admin role.*ada@example.com/);
      expect(other.needs).toBe('admin');
    }
    expect(decide(requester, 'delete', {}).allowed).toBe(false);
  });

  it('lets an admin delete any account', () => {
    expect(decide(admin, 'delete', { requestedBy: requester.identity }).allowed).toBe(true);
    expect(decide(admin, 'delete', {}).allowed).toBe(true);
  });
});
