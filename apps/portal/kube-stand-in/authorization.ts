/**
 * RBAC as the stand-in plays it: every verb is allowed to the one user unless a forbidden fault
 * refuses it, and then the answer is the API server's Forbidden naming that user.
 */
import { isForbidden, type Faults } from './faults.js';
import type { ResourceDef } from './resources.js';
import { forbidden } from './status.js';
import type { Verb } from './types.js';

export type Authorize = (verb: Verb, def: ResourceDef, name?: string, namespace?: string) => void;

export function authorizer(faults: () => Faults, user: string): Authorize {
  return (verb, def, name, namespace) => {
    if (isForbidden(faults(), verb, def.plural, namespace)) throw forbidden(user, verb, def, name, namespace);
  };
}
