import 'server-only';
import { forbidden } from 'next/navigation';
import { decide, type Action, type Principal, type Role } from '@/lib/auth/permissions';
import { loadConfig } from '../config';
import { currentPrincipal, signedInPrincipal } from './current-principal';

/**
 * Pages whose only purpose is an action some roles may not take (the create form). Their layout
 * calls requirePageAction() before anything streams, so a refused role gets an HTTP 403 and the
 * segment's forbidden.tsx, which describes the refusal with pageRefusal().
 */

/** The signed-in user, when allowed to take the page's action. @throws Next's forbidden() interrupt (403) */
export async function requirePageAction(action: Action): Promise<Principal> {
  const principal = await signedInPrincipal();
  if (!decide(principal, action).allowed) forbidden();
  return principal;
}

/** What a 403 page tells the user: who they are, the role needed, and the groups that grant it. */
export interface PageRefusal {
  principal: Principal;
  reason: string;
  needs: Role;
  /** The provider groups that grant the needed role (or more); empty when roles come from nowhere configurable. */
  grantingGroups: string[];
}

export async function pageRefusal(action: Action): Promise<PageRefusal | undefined> {
  const principal = await currentPrincipal();
  if (!principal) return undefined;
  const decision = decide(principal, action);
  if (decision.allowed) return undefined;
  const auth = loadConfig().auth;
  const roles = auth.mode === 'oidc' || auth.mode === 'proxy' ? auth.roles : undefined;
  const grantingGroups =
    roles === undefined
      ? []
      : decision.needs === 'admin'
        ? [...roles.adminGroups]
        : [...roles.requesterGroups, ...roles.adminGroups];
  return { principal, reason: decision.reason, needs: decision.needs, grantingGroups };
}
