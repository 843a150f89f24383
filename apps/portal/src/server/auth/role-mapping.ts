import type { Role } from '@/lib/auth/permissions';

/** How provider groups become portal roles (PORTAL_ROLES_CLAIM, PORTAL_ADMIN_GROUPS, PORTAL_REQUESTER_GROUPS). */
export interface RoleMapping {
  /** The ID token / userinfo claim that lists the user's groups. */
  claim: string;
  adminGroups: readonly string[];
  requesterGroups: readonly string[];
}

/**
 * The groups a claim lists. Providers send an array of strings (Entra ID object ids, Keycloak
 * paths, Dex names); a single string is taken as one group. Anything else counts as no groups.
 */
export function groupsFromClaims(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === 'string') return value.trim() === '' ? [] : [value.trim()];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/** Admin beats requester beats viewer; every signed-in user is at least a viewer. */
export function roleFromGroups(groups: readonly string[], mapping: RoleMapping): Role {
  if (groups.some((group) => mapping.adminGroups.includes(group))) return 'admin';
  if (groups.some((group) => mapping.requesterGroups.includes(group))) return 'requester';
  return 'viewer';
}

/** The contract's recorded identity: email, else preferred_username, else sub. */
export function identityFromClaims(claims: Record<string, unknown>): string | undefined {
  for (const key of ['email', 'preferred_username', 'sub']) {
    const value = claims[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}
