import { NextResponse, type NextRequest } from 'next/server';
import type { Principal } from '@/lib/auth/permissions';
import { resolvePrincipal } from '@/server/auth/principal';
import { handOver, PRINCIPAL_HANDOFF_HEADER } from '@/server/auth/principal-handoff';
import { SIGN_IN_FAILED_PATH, SIGNED_OUT_PATH, signInPath } from '@/server/auth/sign-in-paths';
import { loadConfig } from '@/server/runtime/config';
import { apiHeaders, newNonce, NONCE_HEADER, pageHeaders } from '@/server/http/security-headers';

/**
 * The one gate in front of every page and API route (Next.js 16 "proxy", formerly middleware;
 * it runs on the Node.js runtime, so it can ask the session store). Without a signed-in user a
 * page is redirected to sign-in before anything renders, and an API call is a 401. Role checks
 * happen in the route handlers' guard (src/server/auth/guard.ts), which gets the user resolved
 * here (src/server/auth/principal-handoff.ts), so the session is read once per request.
 * Every answer that passes here gets the security headers (src/server/http/security-headers.ts).
 */

/** Reached without a session: the sign-in flow itself and the pages it ends on. */
const PUBLIC_PAGES = new Set([SIGNED_OUT_PATH, SIGN_IN_FAILED_PATH]);

function isPublic(pathname: string): boolean {
  return pathname.startsWith('/api/auth/') || PUBLIC_PAGES.has(pathname);
}

function withHeaders<T extends Response>(response: T, headers: Record<string, string>): T {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export async function proxy(request: NextRequest): Promise<Response> {
  const { pathname, search } = request.nextUrl;
  const config = loadConfig();
  const options = {
    https: config.publicUrl?.protocol === 'https:',
    development: process.env.NODE_ENV === 'development',
  };
  const isApi = pathname.startsWith('/api/');
  const nonce = newNonce();
  const headers = isApi ? apiHeaders(options) : pageHeaders(nonce, options);

  /** On to the page or route, which renders with this request's nonce (Next reads it from the request's CSP). */
  const next = (principal?: Principal) => {
    const forwarded = new Headers(request.headers);
    // Only the proxy hands a user over; whatever a client sent under that name is dropped.
    forwarded.delete(PRINCIPAL_HANDOFF_HEADER);
    if (principal) forwarded.set(PRINCIPAL_HANDOFF_HEADER, handOver(principal));
    if (!isApi) {
      forwarded.set(NONCE_HEADER, nonce);
      forwarded.set('Content-Security-Policy', headers['Content-Security-Policy'] ?? '');
    }
    return withHeaders(NextResponse.next({ request: { headers: forwarded } }), headers);
  };

  if (isPublic(pathname)) return next();
  const principal = await resolvePrincipal(config.auth, {
    cookie: (name) => request.cookies.get(name)?.value,
    header: (name) => request.headers.get(name),
  });
  if (principal) return next(principal);

  const refusal = { ...headers, 'Cache-Control': 'no-store' };
  if (isApi) return withHeaders(Response.json({ error: 'Sign-in required' }, { status: 401 }), refusal);
  // Pages, including the client router's own fetches of them (navigations and prefetches): Next
  // strips their RSC headers before the proxy runs, so they cannot be told apart here. All of them
  // go to the sign-in route on this origin, which sees those headers and answers router fetches
  // without the cross-origin redirect to the provider (src/server/services/sign-in-flow.ts).
  if (config.auth.mode === 'oidc') {
    const location = new URL(signInPath(`${pathname}${search}`), config.auth.oidc.publicUrl);
    return withHeaders(NextResponse.redirect(location, { status: 303 }), refusal);
  }
  // Proxy mode without forwarded identity: the portal was reached around its authenticating proxy.
  return withHeaders(
    new Response('Sign-in required: open the portal through its authenticating proxy.\n', {
      status: 401,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    }),
    refusal,
  );
}

export const config = {
  // Everything except Next's static assets and the icon, which carry no data.
  matcher: ['/((?!_next/static|_next/image|favicon.ico|icon.svg).*)'],
};
