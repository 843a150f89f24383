import 'server-only';
import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Proxy mode's proof that a request came through the authenticating proxy: the proxy adds this
 * header with PORTAL_PROXY_SECRET, and only a request carrying it has its forwarded identity
 * believed. Both sides are hashed to fixed-length digests first, so timingSafeEqual compares
 * equal lengths and the time taken says nothing about the secret, not even its length.
 */
export const PROXY_PROOF_HEADER = 'x-portal-proxy-secret';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

export function carriesProxyProof(presented: string | null | undefined, secret: string): boolean {
  if (presented === null || presented === undefined || secret === '') return false;
  return timingSafeEqual(digest(presented), digest(secret));
}
