import { signIn } from '@/server/services/sign-in-flow';

export const dynamic = 'force-dynamic';

/** GET ?returnTo=/path: starts OpenID Connect sign-in and comes back to that page. */
export const GET = signIn;
