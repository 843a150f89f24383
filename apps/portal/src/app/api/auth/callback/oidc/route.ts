import { signInCallback } from '@/server/services/sign-in-flow';

export const dynamic = 'force-dynamic';

/** The redirect URI registered with the provider: `<PORTAL_PUBLIC_URL>/api/auth/callback/oidc`. */
export const GET = signInCallback;
