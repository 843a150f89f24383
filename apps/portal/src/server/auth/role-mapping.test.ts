import { describe, expect, it } from 'vitest';
import { groupsFromClaims, identityFromClaims, roleFromGroups, type RoleMapping } from './role-mapping';

const mapping: RoleMapping = {
  claim: 'groups',
  adminGroups: ['platform-admins'],
  requesterGroups: ['developers', 'ops'],
};

describe('role mapping', () => {
  it('maps admin groups to admin, requester groups to requester and anyone else to viewer', () => {
    expect(roleFromGroups(['platform-admins'], mapping)).toBe('admin');
    expect(roleFromGroups(['ops'], mapping)).toBe('requester');
    expect(roleFromGroups(['marketing'], mapping)).toBe('viewer');
    expect(roleFromGroups([], mapping)).toBe('viewer');
  });

  it('gives the highest role when a user is in several groups', () => {
    expect(roleFromGroups(['developers', 'platform-admins'], mapping)).toBe('admin');
  });

  it('matches group names exactly', () => {
    expect(roleFromGroups(['Platform-Admins', 'platform-admins-old'], mapping)).toBe('viewer');
  });

  it('reads the groups from the configured claim, as a list or a single string', () => {
    expect(groupsFromClaims({ groups: ['a', 'b', 3] }, 'groups')).toEqual(['a', 'b']);
    expect(groupsFromClaims({ roles: 'developers' }, 'roles')).toEqual(['developers']);
    expect(groupsFromClaims({ groups: ['a'] }, 'roles')).toEqual([]);
    expect(groupsFromClaims({ groups: { a: true } }, 'groups')).toEqual([]);
  });

  it('records the email, else preferred_username, else sub', () => {
    expect(identityFromClaims({ sub: 's1', preferred_username: 'ann', email: 'ann@example.com' })).toBe(
      'ann@example.com',
    );
    expect(identityFromClaims({ sub: 's1', preferred_username: 'ann', email: '' })).toBe('ann');
    expect(identityFromClaims({ sub: 's1' })).toBe('s1');
    expect(identityFromClaims({})).toBeUndefined();
  });
});
