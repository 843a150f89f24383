import 'server-only';
import { parseCookie } from 'cookie';
import { NextResponse } from 'next/server';
import { loadConfig } from '../runtime/config';
import { errorResponse } from '../http/error-response';
import { requestIdOf } from '../http/request-context';
import { logger } from '../runtime/logger';
import { PlatformUnavailableError } from '../model/errors';
import { assertSameOrigin } from '../http/same-origin';
import type { AuthConfig } from '../runtime/auth-config';
import { beginSignIn, completeSignIn, endSessionUrl, type SignInTransaction } from '../auth/oidc';
import { requestCredentials } from '../auth/principal';
import { seal, unseal } from '../auth/sealed-token';
import { cookieOptions, endSession, readSession, sessionCookieName, startSession } from '../auth/sessions';
import { safeReturnPath, SIGN_IN_FAILED_PATH, SIGNED_OUT_PATH } from '../auth/sign-in-paths';

/** The three steps of sign-in and sign-out behind /api/auth/*; the route files only call these. */

type OidcAuth = Extract<AuthConfig, { mode: 'oidc' }>;

/** Long enough to type a password and approve consent; the transaction is useless after it. */
const SIGN_IN_WINDOW_MS = 10 * 60 * 1000;
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * Each sign-in has a cookie of its own, named by its state: a second sign-in started in the same
 * browser (another tab, or an open page whose session ended and that reloads itself) must not
 * overwrite the transaction of one waiting at the provider, whose callback would then be refused.
 */
function transactionCookiePrefix(auth: OidcAuth): string {
  return auth.session.secure ? '__Host-portal-sign-in-' : 'portal-sign-in-';
}

/** The states openid-client makes (base64url); anything else in a callback names no transaction. */
const STATE = /^[\w-]{16,128}$/;

/** Sign-ins one browser may have in progress at once; starting another ends the oldest. */
const MAX_SIGN_INS_IN_PROGRESS = 3;

/** The transaction cookies the browser sent, in the order it sent them (oldest first, as browsers order them). */
function transactionCookiesIn(request: Request, auth: OidcAuth): string[] {
  const prefix = transactionCookiePrefix(auth);
  return Object.keys(parseCookie(request.headers.get('cookie') ?? '')).filter((name) => name.startsWith(prefix));
}

function oidcAuth(): OidcAuth | undefined {
  const auth = loadConfig().auth;
  return auth.mode === 'oidc' ? auth : undefined;
}

function notUsed(): Response {
  return Response.json(
    { error: 'Sign-in is not used: the portal does not run with PORTAL_AUTH=oidc' },
    { status: 404, headers: NO_STORE },
  );
}

/** Expires a cookie with the same attributes it was set with (a `__Host-` cookie needs Secure to go away). */
function clearCookie(response: NextResponse, auth: OidcAuth, name: string): void {
  response.cookies.set(name, '', cookieOptions(auth.session, new Date(0)));
}

function redirect(auth: OidcAuth, location: string | URL): NextResponse {
  return NextResponse.redirect(new URL(location, auth.oidc.publicUrl), { status: 303, headers: NO_STORE });
}

/** A sign-in step the provider failed: a warning in the portal's log, with the request id that the error answer carries. */
function logFailure(msg: string, error: unknown, request: Request): void {
  logger().warn({ err: error, requestId: requestIdOf(request) }, msg);
}

/**
 * A fetch by Next's client router (a navigation or a prefetch of a page), which src/proxy.ts sent
 * here because there is no session. Next strips these headers before the proxy runs, so this is
 * the first place that can tell; the route handler sees the request as the browser sent it.
 */
function isRouterFetch(request: Request): boolean {
  return request.headers.get('rsc') === '1' || request.headers.has('next-router-prefetch');
}

/**
 * GET /api/auth/signin?returnTo=/path: off to the provider, or straight back when already signed in.
 * A router fetch gets 204 instead: fetch() cannot follow a redirect to the provider (another origin,
 * refused by CORS). Without a page to render the router loads this URL as a page, which lands here
 * again as a navigation and goes to the provider; a prefetch is simply dropped, without a console error.
 */
export async function signIn(request: Request): Promise<Response> {
  const auth = oidcAuth();
  if (!auth) return notUsed();
  const returnTo = safeReturnPath(new URL(request.url).searchParams.get('returnTo'));
  const credentials = requestCredentials(request);
  if (await readSession(auth.session, credentials.cookie(sessionCookieName(auth.session)))) {
    return redirect(auth, returnTo);
  }
  if (isRouterFetch(request)) return new Response(null, { status: 204, headers: NO_STORE });
  let started: Awaited<ReturnType<typeof beginSignIn>>;
  try {
    started = await beginSignIn(auth.oidc, returnTo);
  } catch (error) {
    logFailure('sign-in provider unreachable', error, request);
    return errorResponse(
      new PlatformUnavailableError('The sign-in provider cannot be reached; try again in a moment'),
      requestIdOf(request),
    );
  }
  const { url, transaction } = started;
  const expires = new Date(Date.now() + SIGN_IN_WINDOW_MS);
  const sealed = await seal(
    { ...transaction },
    { secret: auth.session.secret, purpose: 'sign-in', expiresAt: expires },
  );
  const response = redirect(auth, url);
  const earlier = transactionCookiesIn(request, auth);
  for (const name of earlier.slice(0, Math.max(0, earlier.length - (MAX_SIGN_INS_IN_PROGRESS - 1)))) {
    clearCookie(response, auth, name);
  }
  response.cookies.set(
    `${transactionCookiePrefix(auth)}${transaction.state}`,
    sealed,
    cookieOptions(auth.session, expires),
  );
  return response;
}

function asTransaction(payload: Record<string, unknown> | undefined): SignInTransaction | undefined {
  if (!payload) return undefined;
  const { state, nonce, codeVerifier, returnTo } = payload;
  if (typeof state !== 'string' || typeof nonce !== 'string' || typeof codeVerifier !== 'string') return undefined;
  return { state, nonce, codeVerifier, returnTo: safeReturnPath(typeof returnTo === 'string' ? returnTo : '/') };
}

/** GET /api/auth/callback/oidc: the provider's answer becomes a server-side session. */
export async function signInCallback(request: Request): Promise<Response> {
  const auth = oidcAuth();
  if (!auth) return notUsed();
  const credentials = requestCredentials(request);
  const query = new URL(request.url).search;
  const state = new URLSearchParams(query).get('state') ?? '';
  const cookieName = STATE.test(state) ? `${transactionCookiePrefix(auth)}${state}` : undefined;
  const transaction =
    cookieName === undefined
      ? undefined
      : asTransaction(
          await unseal(credentials.cookie(cookieName) ?? '', { secret: auth.session.secret, purpose: 'sign-in' }),
        );
  const failed = (reason: string) => {
    const response = redirect(auth, `${SIGN_IN_FAILED_PATH}?reason=${reason}`);
    if (cookieName !== undefined) clearCookie(response, auth, cookieName);
    return response;
  };
  if (!transaction || cookieName === undefined) return failed('expired');
  let signedIn: Awaited<ReturnType<typeof completeSignIn>>;
  try {
    signedIn = await completeSignIn(auth.oidc, auth.roles, query, transaction);
  } catch (error) {
    logFailure('sign-in callback refused', error, request);
    return failed(new URLSearchParams(query).get('error') === 'access_denied' ? 'denied' : 'provider');
  }
  const session = await startSession(auth.session, signedIn.principal, signedIn.idToken);
  const response = redirect(auth, transaction.returnTo);
  clearCookie(response, auth, cookieName);
  response.cookies.set(sessionCookieName(auth.session), session.value, cookieOptions(auth.session, session.expiresAt));
  return response;
}

/** POST /api/auth/signout: ends the session here, then at the provider when it offers that. */
export async function signOut(request: Request): Promise<Response> {
  const auth = oidcAuth();
  if (!auth) return notUsed();
  try {
    assertSameOrigin(request);
  } catch (error) {
    return errorResponse(error, requestIdOf(request));
  }
  const name = sessionCookieName(auth.session);
  const ended = await endSession(auth.session, requestCredentials(request).cookie(name));
  let location: URL | string = SIGNED_OUT_PATH;
  try {
    location = (await endSessionUrl(auth.oidc, ended?.idToken)) ?? SIGNED_OUT_PATH;
  } catch (error) {
    // The local session is over either way; the provider's own sign-out is best effort.
    logFailure('provider sign-out unavailable', error, request);
  }
  const response = redirect(auth, location);
  clearCookie(response, auth, name);
  return response;
}
