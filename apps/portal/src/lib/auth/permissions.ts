/**
 * Who may do what in the portal. Pure code shared by the server (which enforces it on every
 * request) and the browser (which only hides or disables what the server would refuse).
 */

export const ROLES = ['viewer', 'requester', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** The signed-in user as the portal sees it, whatever the sign-in mode. */
export interface Principal {
  /**
   * Who the person is, and what ownership compares: `<issuer>#<sub>` in oidc mode (an issuer has
   * no fragment, so the first `#` ends it), the forwarded user in proxy mode.
   */
  subject: string;
  /** For people, recorded beside the subject as requested-by: the verified e-mail, else the name, else sub. */
  identity: string;
  /** A display name when the provider gave one. */
  name?: string;
  /** Only an address the provider vouches for (email_verified) or the authenticating proxy forwarded. */
  verifiedEmail?: string;
  role: Role;
}

/** What a request wants to do; `read` is every page and GET route. */
export type Action = 'read' | 'create' | 'change' | 'resync' | 'remediate' | 'delete' | 'adopt';

/** The resource an action is aimed at, for rules that depend on ownership. */
export interface OwnedResource {
  /** The owner as recorded for people (on accounts from before subjects were recorded: an e-mail). */
  requestedBy?: string;
  /** The owner's subject; absent on accounts recorded before the portal recorded subjects. */
  requestedBySubject?: string;
}

/** A refusal names the lowest role that would have been allowed, so a page can say how to get it. */
export type Decision = { allowed: true } | { allowed: false; reason: string; needs: Role };

const RANK: Record<Role, number> = { viewer: 0, requester: 1, admin: 2 };

const ACTION_WORDS: Record<Exclude<Action, 'read'>, string> = {
  create: 'Creating storage accounts',
  change: 'Changing storage accounts',
  resync: 'Asking for a resync',
  remediate: 'Remediating storage accounts',
  delete: 'Deleting storage accounts',
  adopt: 'Adopting cloud accounts',
};

export function hasRole(principal: Principal, needed: Role): boolean {
  return RANK[principal.role] >= RANK[needed];
}

/**
 * Whether the resource is the principal's: its recorded subject is theirs. An account recorded
 * before subjects were (only an e-mail) belongs to the person whose verified e-mail it is; e-mail
 * addresses are compared without regard to case, as mail systems treat them.
 */
export function owns(principal: Principal, resource: OwnedResource): boolean {
  if (resource.requestedBySubject !== undefined) return resource.requestedBySubject === principal.subject;
  const recorded = resource.requestedBy?.trim().toLowerCase();
  return (
    recorded !== undefined &&
    recorded !== '' &&
    principal.verifiedEmail !== undefined &&
    principal.verifiedEmail.trim().toLowerCase() === recorded
  );
}

function refuse(action: Exclude<Action, 'read'>, principal: Principal, needs: Role, why: string): Decision {
  return {
    allowed: false,
    needs,
    reason: `${ACTION_WORDS[action]} needs ${why}; you are signed in as ${principal.identity} with the ${principal.role} role`,
  };
}

/**
 * The contract's permissions: a viewer reads; a requester also creates, and changes, resyncs,
 * remediates or deletes what it owns; an admin does all of that to any account, and adopts.
 * Without a resource, an owner-bound action is judged as "could the user do this to something
 * of their own".
 */
export function decide(principal: Principal, action: Action, resource?: OwnedResource): Decision {
  if (action === 'read') return { allowed: true };
  if (action === 'adopt') {
    return hasRole(principal, 'admin') ? { allowed: true } : refuse(action, principal, 'admin', 'the admin role');
  }
  if (!hasRole(principal, 'requester')) return refuse(action, principal, 'requester', 'the requester or admin role');
  if (action === 'create' || hasRole(principal, 'admin') || resource === undefined) return { allowed: true };
  if (owns(principal, resource)) return { allowed: true };
  return refuse(
    action,
    principal,
    'admin',
    `the admin role for an account someone else requested (${resource.requestedBy ?? 'requester unknown'})`,
  );
}
