import 'server-only';
import { decide, type Action, type Principal, type Role } from '@/lib/auth/permissions';
import { loadConfig } from '../runtime/config';
import { signedInPrincipal } from './current-principal';

/**
 * Pages whose only purpose is an action some roles may not take (the create form). The contract
 * lets a viewer open every page, so such a page answers 200 and shows pageRefusal()'s explanation
 * in place of its form; the API routes still refuse the action itself with 403.
 */

/** What a refused page tells the user: who they are, the role needed, and the groups that grant it. */
export interface PageRefusal {
  principal: Principal;
  reason: string;
  needs: Role;
  /** The provider groups that grant the needed role (or more); empty when roles come from nowhere configurable. */
  grantingGroups: string[];
}

/** Why the signed-in user may not take the page's action, or undefined when they may. Redirects to sign-in without a session. */
export async function pageRefusal(action: Action): Promise<PageRefusal | undefined> {
  const principal = await signedInPrincipal();
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
