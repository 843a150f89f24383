/** Faults a test or a demo can switch on to see how the portal copes with a misbehaving cluster. */
import type { Verb } from './types.js';

export interface ForbiddenRule {
  /** The verbs refused; "*" refuses all. */
  verbs: readonly (Verb | '*')[];
  /** Resource plurals refused (accounts, resourcegroups, events); absent means all. */
  resources?: readonly string[];
  /**
   * "cluster": refused only across all namespaces, allowed within one, as for a service account
   * that a Role grants the resource in some namespace but no ClusterRole grants it everywhere.
   */
  scope?: 'cluster';
}

/**
 * reset: connections are accepted and then closed without an answer (ECONNRESET, "socket hang up").
 * refuse: the listener is closed, so connections are refused (ECONNREFUSED); the control API goes
 * with it, so only the programmatic handle can switch this back.
 */
export type UnreachableMode = 'reset' | 'refuse';

/** A ValidatingAdmissionPolicy that denies every create of an account, as a cluster's guard rails do. */
export interface DenyingPolicy {
  policy: string;
  message: string;
}

export interface Faults {
  forbidden: ForbiddenRule | null;
  denyingPolicy: DenyingPolicy | null;
  unreachable: UnreachableMode | null;
  /** Every create answers 409 AlreadyExists, as if someone had just taken the name. */
  conflictOnCreate: boolean;
}

export function noFaults(): Faults {
  return { forbidden: null, denyingPolicy: null, unreachable: null, conflictOnCreate: false };
}

export function isForbidden(faults: Faults, verb: Verb, plural: string, namespace?: string): boolean {
  const rule = faults.forbidden;
  if (!rule) return false;
  const verbMatches = rule.verbs.includes('*') || rule.verbs.includes(verb);
  const resourceMatches = !rule.resources || rule.resources.includes(plural);
  const scopeMatches = rule.scope !== 'cluster' || namespace === undefined;
  return verbMatches && resourceMatches && scopeMatches;
}
