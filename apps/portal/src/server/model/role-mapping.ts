import 'server-only';
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

/** A claim's value when it is a non-empty string, trimmed. */
function text(claims: Record<string, unknown>, key: string): string | undefined {
  const value = claims[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Who signed in, as the provider vouches for it; see Principal in src/lib/auth/permissions.ts. */
export interface ClaimedIdentity {
  subject: string;
  identity: string;
  name?: string;
  verifiedEmail?: string;
}

/**
 * The person of an ID token: (iss, sub) is the subject; the e-mail counts only when the provider
 * says it verified it (email_verified true; some providers send the string "true"). `email` and
 * `email_verified` must come from the same set of claims, so a caller never pairs one source's
 * address with another's verification.
 */
export function identityFromClaims(claims: Record<string, unknown>): ClaimedIdentity | undefined {
  const issuer = text(claims, 'iss');
  const sub = text(claims, 'sub');
  if (issuer === undefined || sub === undefined) return undefined;
  const verified = claims['email_verified'] === true || claims['email_verified'] === 'true';
  const verifiedEmail = verified ? text(claims, 'email') : undefined;
  const name = text(claims, 'name');
  const identity = verifiedEmail ?? text(claims, 'preferred_username') ?? name ?? sub;
  return {
    subject: `${issuer}#${sub}`,
    identity,
    ...(name === undefined ? {} : { name }),
    ...(verifiedEmail === undefined ? {} : { verifiedEmail }),
  };
}
