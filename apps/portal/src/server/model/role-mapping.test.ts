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

  const ISSUER = 'https://login.example.com/realms/platform';

  it('makes the subject of the issuer and sub, and shows the verified e-mail, else the name, else sub', () => {
    const claims = { iss: ISSUER, sub: 's1', preferred_username: 'ann', name: 'Ann Example', email: 'ann@example.com' };
    expect(identityFromClaims({ ...claims, email_verified: true })).toEqual({
      subject: `${ISSUER}#s1`,
      identity: 'ann@example.com',
      name: 'Ann Example',
      verifiedEmail: 'ann@example.com',
    });
    expect(identityFromClaims({ ...claims, email_verified: 'true' })?.verifiedEmail).toBe('ann@example.com');
    expect(identityFromClaims({ iss: ISSUER, sub: 's1', name: 'Ann Example' })?.identity).toBe('Ann Example');
    expect(identityFromClaims({ iss: ISSUER, sub: 's1' })).toEqual({ subject: `${ISSUER}#s1`, identity: 's1' });
  });

  it.each([undefined, false, 'false', 'yes', 1])('ignores an e-mail whose email_verified is %j', (flag) => {
    const claims = { iss: ISSUER, sub: 's2', preferred_username: 'mallory', email: 'ann@example.com' };
    const identity = identityFromClaims(flag === undefined ? claims : { ...claims, email_verified: flag });
    expect(identity).toEqual({ subject: `${ISSUER}#s2`, identity: 'mallory' });
  });

  it('needs both the issuer and the subject', () => {
    expect(identityFromClaims({ sub: 's1', email: 'a@example.com', email_verified: true })).toBeUndefined();
    expect(identityFromClaims({ iss: ISSUER })).toBeUndefined();
  });
});
