import 'server-only';
import { cookies, headers } from 'next/headers';
import { cache } from 'react';
import type { Principal } from '@/lib/auth/permissions';
import { loadConfig } from '../config';
import { SignInRequiredError } from '../platform/errors';
import { resolvePrincipal } from './principal';

/**
 * The signed-in user while rendering a Server Component or running a Server Action, looked up
 * once per request. Pages never get here without one: src/proxy.ts redirects first.
 */
export const currentPrincipal = cache(async (): Promise<Principal | undefined> => {
  const [cookieStore, headerStore] = await Promise.all([cookies(), headers()]);
  return resolvePrincipal(loadConfig().auth, {
    cookie: (name) => cookieStore.get(name)?.value,
    header: (name) => headerStore.get(name),
  });
});

/** For Server Actions: the signed-in user. @throws SignInRequiredError */
export async function requireCurrentPrincipal(): Promise<Principal> {
  const principal = await currentPrincipal();
  if (!principal) throw new SignInRequiredError();
  return principal;
}
