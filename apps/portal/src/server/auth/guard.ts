import 'server-only';
import { decide, type Action, type OwnedResource, type Principal } from '@/lib/auth/permissions';
import { loadConfig } from '../runtime/config';
import { ForbiddenError, SignInRequiredError } from '../model/errors';
import { requestCredentials, resolvePrincipal } from './principal';
import { PRINCIPAL_HANDOFF_HEADER, takeOver } from './principal-handoff';

/**
 * The server-side guard. Every route handler reaches it through handleRoute() (src/server/http),
 * and the data layer calls authorize() again once it knows whose resource is at stake, so a
 * route cannot forget it and the UI is never the only check.
 */

/** The signed-in user of a route handler's request. @throws SignInRequiredError (401) */
export async function requirePrincipal(request: Request): Promise<Principal> {
  const principal =
    takeOver(request.headers.get(PRINCIPAL_HANDOFF_HEADER)) ??
    (await resolvePrincipal(loadConfig().auth, requestCredentials(request)));
  if (!principal) throw new SignInRequiredError();
  return principal;
}

/** @throws ForbiddenError (403) naming the role the action needs */
export function authorize(principal: Principal, action: Action, resource?: OwnedResource): void {
  const decision = decide(principal, action, resource);
  if (!decision.allowed) throw new ForbiddenError(decision.reason);
}
