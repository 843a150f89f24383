/** A claim's values: an array's strings, or the words of a space-separated string. */
function valuesOf(claim: unknown): string[] {
  if (typeof claim === 'string') return claim.split(' ').filter((word) => word !== '');
  if (Array.isArray(claim)) return claim.filter((value): value is string => typeof value === 'string');
  return [];
}

/** The value at a dot-separated path (`realm_access.roles`), or undefined. Only own properties are followed. */
function claimAt(payload: Record<string, unknown>, path: string): unknown {
  let value: unknown = payload;
  for (const name of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, name)) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

/**
 * The roles a provider token grants. By default the union of `roles` (application roles, as
 * Entra ID issues them) and `scp` (delegated scopes: Entra ID's space-separated string, Okta's
 * array). With AUTH_OIDC_ROLES_CLAIM, only that claim (`scope` for RFC 9068's JWT access tokens,
 * `realm_access.roles` for Keycloak's realm roles). The names are compared as they are: a role or
 * scope named `Books.Read` grants Books.Read.
 */
export function rolesFrom(payload: Record<string, unknown>, rolesClaim: string | undefined): string[] {
  const claims = rolesClaim === undefined ? ['roles', 'scp'] : [rolesClaim];
  return [...new Set(claims.flatMap((path) => valuesOf(claimAt(payload, path))))];
}
