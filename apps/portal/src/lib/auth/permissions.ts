/**
 * Who may do what in the portal. Pure code shared by the server (which enforces it on every
 * request) and the browser (which only hides or disables what the server would refuse).
 */

export const ROLES = ['viewer', 'requester', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** The signed-in user as the portal sees it, whatever the sign-in mode. */
export interface Principal {
  /** Recorded as requested-by / deletion-requested-by: email, else preferred_username, else sub. */
  identity: string;
  /** A display name when the provider gave one. */
  name?: string;
  email?: string;
  role: Role;
}

/** What a request wants to do; `read` is every page and GET route. */
export type Action = 'read' | 'create' | 'delete' | 'change' | 'resync';

/** The resource an action is aimed at, for rules that depend on ownership. */
export interface OwnedResource {
  requestedBy?: string;
}

/** A refusal names the lowest role that would have been allowed, so a page can say how to get it. */
export type Decision = { allowed: true } | { allowed: false; reason: string; needs: Role };

const RANK: Record<Role, number> = { viewer: 0, requester: 1, admin: 2 };

const ACTION_WORDS: Record<Exclude<Action, 'read'>, string> = {
  create: 'Creating storage accounts',
  delete: 'Deleting storage accounts',
  change: 'Changing storage accounts',
  resync: 'Asking for a resync',
};

export function hasRole(principal: Principal, needed: Role): boolean {
  return RANK[principal.role] >= RANK[needed];
}

function refuse(action: Exclude<Action, 'read'>, principal: Principal, needs: Role, why: string): Decision {
  return {
    allowed: false,
    needs,
    reason: `${ACTION_WORDS[action]} needs ${why}; you are signed in as ${principal.identity} with the ${principal.role} role`,
  };
}

/**
 * The contract's permissions: a viewer reads; a requester also creates, and deletes or changes
 * what it requested; an admin deletes and changes anything. Without a resource, an owner-bound
 * action is judged as "could the user do this to something of their own".
 */
export function decide(principal: Principal, action: Action, resource?: OwnedResource): Decision {
  if (action === 'read') return { allowed: true };
  if (!hasRole(principal, 'requester')) return refuse(action, principal, 'requester', 'the requester or admin role');
  if (action === 'create' || action === 'resync' || hasRole(principal, 'admin') || resource === undefined) {
    return { allowed: true };
  }
  if (resource.requestedBy !== undefined && resource.requestedBy === principal.identity) return { allowed: true };
  return refuse(
    action,
    principal,
    'admin',
    `the admin role for an account someone else requested (${resource.requestedBy ?? 'requester unknown'})`,
  );
}
