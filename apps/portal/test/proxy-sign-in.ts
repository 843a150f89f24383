/**
 * Proxy mode in tests: the secret the portal is configured with (PORTAL_PROXY_SECRET) and the
 * header that proves a request came through the authenticating proxy. A forwarded identity
 * without the proof is nobody's.
 */
export const TEST_PROXY_SECRET = 'test-proxy-secret-0123456789abcdef';

export const PROXY_PROOF: Readonly<Record<string, string>> = { 'x-portal-proxy-secret': TEST_PROXY_SECRET };

/** The headers the proxy sends for `identity` (x-forwarded-user, -email, -groups). */
export function throughProxy(identity: Record<string, string>): Record<string, string> {
  return { ...PROXY_PROOF, ...identity };
}
