import { NextResponse, type NextRequest } from 'next/server';
import { resolvePrincipal } from '@/server/auth/principal';
import { SIGN_IN_FAILED_PATH, SIGNED_OUT_PATH, signInPath } from '@/server/auth/sign-in-paths';
import { loadConfig } from '@/server/config';

/**
 * The one gate in front of every page and API route (Next.js 16 "proxy", formerly middleware;
 * it runs on the Node.js runtime, so it can ask the session store). Without a signed-in user a
 * page is redirected to sign-in before anything renders, and an API call is a 401. Role checks
 * happen in the route handlers' guard (src/server/auth/guard.ts), which checks the session again.
 */

/** Reached without a session: the sign-in flow itself and the pages it ends on. */
const PUBLIC_PAGES = new Set([SIGNED_OUT_PATH, SIGN_IN_FAILED_PATH]);

function isPublic(pathname: string): boolean {
  return pathname.startsWith('/api/auth/') || PUBLIC_PAGES.has(pathname);
}

export async function proxy(request: NextRequest): Promise<Response> {
  const { pathname, search } = request.nextUrl;
  if (isPublic(pathname)) return NextResponse.next();
  const auth = loadConfig().auth;
  const principal = await resolvePrincipal(auth, {
    cookie: (name) => request.cookies.get(name)?.value,
    header: (name) => request.headers.get(name),
  });
  if (principal) return NextResponse.next();

  const headers = { 'Cache-Control': 'no-store' };
  if (pathname.startsWith('/api/')) {
    return Response.json({ error: 'Sign-in required' }, { status: 401, headers });
  }
  // Pages, including the client router's own fetches of them (navigations and prefetches): Next
  // strips their RSC headers before the proxy runs, so they cannot be told apart here. All of them
  // go to the sign-in route on this origin, which sees those headers and answers router fetches
  // without the cross-origin redirect to the provider (src/server/auth/sign-in-flow.ts).
  if (auth.mode === 'oidc') {
    const location = new URL(signInPath(`${pathname}${search}`), auth.oidc.publicUrl);
    return NextResponse.redirect(location, { status: 303, headers });
  }
  // Proxy mode without forwarded identity: the portal was reached around its authenticating proxy.
  return new Response('Sign-in required: open the portal through its authenticating proxy.\n', {
    status: 401,
    headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

export const config = {
  // Everything except Next's static assets and the icon, which carry no data.
  matcher: ['/((?!_next/static|_next/image|favicon.ico|icon.svg).*)'],
};
