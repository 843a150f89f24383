import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Principal } from '@/lib/auth/permissions';
import { processWide } from '../runtime/process-wide';

/**
 * The proxy resolves every request's user before the page or route behind it runs; handing that
 * user over spares the page or route a second read of the session store for the same request.
 * The request header carries only an unguessable token for an entry in this process's memory
 * (the proxy and the handlers share the process), never the user itself, and the proxy removes
 * any such header a client sends. Without a token, or with an unknown one (a route called
 * directly, an entry gone), the user is resolved from the request as before.
 */
export const PRINCIPAL_HANDOFF_HEADER = 'x-portal-principal-handoff';

// A handler starts within moments of the proxy; entries left unclaimed (a request answered
// without asking who sent it) are dropped after this.
const UNCLAIMED_TTL_MS = 60_000;
/**
 * A flood of requests whose handlers never claim their user must not grow memory without bound:
 * beyond this many, the oldest entry goes, and its request reads the session itself.
 */
export const MAX_PENDING_HANDOFFS = 10_000;

interface Handoff {
  principal: Principal;
  expiresAt: number;
}

const pending = () => processWide('principal-handoffs', () => new Map<string, Handoff>());

/** Keeps the user the proxy resolved and answers the token to forward with the request. */
export function handOver(principal: Principal, now = Date.now()): string {
  const handoffs = pending();
  // Insertion order is expiry order, so the expired entries are the first ones.
  for (const [token, handoff] of handoffs) {
    if (handoff.expiresAt > now) break;
    handoffs.delete(token);
  }
  while (handoffs.size >= MAX_PENDING_HANDOFFS) handoffs.delete(handoffs.keys().next().value as string);
  const token = randomUUID();
  handoffs.set(token, { principal, expiresAt: now + UNCLAIMED_TTL_MS });
  return token;
}

/** The user handed over under this token, once; undefined for no, an unknown or an expired token. */
export function takeOver(token: string | null | undefined, now = Date.now()): Principal | undefined {
  if (!token) return undefined;
  const handoffs = pending();
  const handoff = handoffs.get(token);
  handoffs.delete(token);
  return handoff && handoff.expiresAt > now ? handoff.principal : undefined;
}
