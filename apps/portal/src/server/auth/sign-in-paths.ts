import 'server-only';

/** Where the sign-in flow lives; the redirect URI is the contract's `<PORTAL_PUBLIC_URL>/api/auth/callback/oidc`. */
export const SIGN_IN_PATH = '/api/auth/signin';
export const CALLBACK_PATH = '/api/auth/callback/oidc';
export const SIGNED_OUT_PATH = '/signed-out';
export const SIGN_IN_FAILED_PATH = '/sign-in-failed';

/**
 * A path on this portal to come back to after sign-in. Anything else (another origin,
 * `//host`, `/\host`, control characters) falls back to the home page, so sign-in is never an
 * open redirect.
 */
export function safeReturnPath(candidate: string | null | undefined): string {
  if (!candidate || !candidate.startsWith('/') || candidate.startsWith('//') || candidate.startsWith('/\\')) return '/';
  if (/\p{Cc}/u.test(candidate)) return '/';
  if (candidate.startsWith('/api/')) return '/';
  return candidate;
}

export function signInPath(returnTo: string): string {
  return `${SIGN_IN_PATH}?returnTo=${encodeURIComponent(safeReturnPath(returnTo))}`;
}
