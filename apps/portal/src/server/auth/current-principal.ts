import 'server-only';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import type { Principal } from '@/lib/auth/permissions';
import { loadConfig } from '../runtime/config';
import { resolvePrincipal } from './principal';
import { PRINCIPAL_HANDOFF_HEADER, takeOver } from './principal-handoff';
import { SIGN_IN_PATH } from './sign-in-paths';

/**
 * The signed-in user while rendering a Server Component or running a Server Action, looked up
 * once per request: the user the proxy resolved (principal-handoff.ts), or else from the request.
 * Pages never get here without one: src/proxy.ts redirects first.
 */
export const currentPrincipal = cache(async (): Promise<Principal | undefined> => {
  const [cookieStore, headerStore] = await Promise.all([cookies(), headers()]);
  const handedOver = takeOver(headerStore.get(PRINCIPAL_HANDOFF_HEADER));
  if (handedOver) return handedOver;
  return resolvePrincipal(loadConfig().auth, {
    cookie: (name) => cookieStore.get(name)?.value,
    header: (name) => headerStore.get(name),
  });
});

/**
 * The signed-in user of a page. The proxy lets no page render without one; should a session end
 * between the proxy's check and this one, sign-in starts again rather than the page guessing.
 */
export async function signedInPrincipal(): Promise<Principal> {
  const principal = await currentPrincipal();
  if (!principal) redirect(SIGN_IN_PATH);
  return principal;
}
