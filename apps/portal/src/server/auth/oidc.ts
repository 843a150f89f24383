import 'server-only';
import * as client from 'openid-client';
import type { Principal } from '@/lib/auth/permissions';
import { processWide } from '../runtime/process-wide';
import type { OidcSettings } from '../runtime/auth-config';
import { groupsFromClaims, identityFromClaims, roleFromGroups, type RoleMapping } from '../model/role-mapping';
import { CALLBACK_PATH, SIGNED_OUT_PATH } from './sign-in-paths';

/**
 * OpenID Connect with openid-client: discovery from the issuer, authorization code flow with
 * PKCE (S256), state and nonce, ID token checked against the provider's JWKS, RP-initiated
 * sign-out. Nothing here parses tokens or signs anything by hand.
 */

/** What the browser must bring back to the callback: kept sealed in a short-lived cookie. */
export interface SignInTransaction {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
}

/** The provider's discovered configuration, fetched once per process (a failure is retried next time). */
export function oidcConfiguration(settings: OidcSettings): Promise<client.Configuration> {
  const cache = processWide('oidc-configurations', () => new Map<string, Promise<client.Configuration>>());
  const key = `${settings.issuer.href} ${settings.clientId}`;
  let configuration = cache.get(key);
  if (!configuration) {
    configuration = client.discovery(
      settings.issuer,
      settings.clientId,
      undefined,
      client.ClientSecretBasic(settings.clientSecret),
      // Configuration already refused plain http except on a loopback address.
      settings.issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined,
    );
    configuration.catch(() => cache.delete(key));
    cache.set(key, configuration);
  }
  return configuration;
}

export function redirectUri(settings: OidcSettings): string {
  return new URL(CALLBACK_PATH, settings.publicUrl).href;
}

export async function beginSignIn(
  settings: OidcSettings,
  returnTo: string,
): Promise<{ url: URL; transaction: SignInTransaction }> {
  const configuration = await oidcConfiguration(settings);
  const transaction: SignInTransaction = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
    returnTo,
  };
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri(settings),
    scope: settings.scopes.join(' '),
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(transaction.codeVerifier),
    code_challenge_method: 'S256',
    state: transaction.state,
    nonce: transaction.nonce,
  });
  return { url, transaction };
}

/**
 * Redeems the code the provider sent back and answers who signed in. Groups come from the
 * ID token, or from userinfo when the provider keeps them there.
 */
export async function completeSignIn(
  settings: OidcSettings,
  roles: RoleMapping,
  callbackQuery: string,
  transaction: SignInTransaction,
): Promise<{ principal: Principal; idToken?: string }> {
  const configuration = await oidcConfiguration(settings);
  // The URL the provider redirected to, rebuilt from the configured origin rather than Host.
  const currentUrl = new URL(`${CALLBACK_PATH}${callbackQuery}`, settings.publicUrl);
  const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
    pkceCodeVerifier: transaction.codeVerifier,
    expectedState: transaction.state,
    expectedNonce: transaction.nonce,
    idTokenExpected: true,
  });
  const idClaims = tokens.claims();
  if (!idClaims) throw new Error('The provider sent no ID token');
  let claims: Record<string, unknown> = { ...idClaims };
  if (configuration.serverMetadata().userinfo_endpoint && tokens.access_token) {
    const userInfo = await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
    claims = { ...userInfo, ...idClaims };
    // The e-mail and whether it is verified come as a pair from the same source.
    const emailSource: Record<string, unknown> = 'email' in idClaims ? idClaims : userInfo;
    claims['email'] = emailSource['email'];
    claims['email_verified'] = emailSource['email_verified'];
  }
  // The ID token's issuer, checked against the discovered one by authorizationCodeGrant.
  const identity = identityFromClaims({ ...claims, iss: idClaims.iss, sub: idClaims.sub });
  if (identity === undefined) throw new Error('The ID token has no usable subject');
  const principal: Principal = { ...identity, role: roleFromGroups(groupsFromClaims(claims, roles.claim), roles) };
  return { principal, ...(tokens.id_token === undefined ? {} : { idToken: tokens.id_token }) };
}

/** The provider's end_session_endpoint with the hint and the way back, or undefined when it has none. */
export async function endSessionUrl(settings: OidcSettings, idToken: string | undefined): Promise<URL | undefined> {
  const configuration = await oidcConfiguration(settings);
  if (!configuration.serverMetadata().end_session_endpoint) return undefined;
  return client.buildEndSessionUrl(configuration, {
    post_logout_redirect_uri: new URL(SIGNED_OUT_PATH, settings.publicUrl).href,
    ...(idToken === undefined ? {} : { id_token_hint: idToken }),
  });
}
