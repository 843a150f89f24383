/**
 * A real OpenID Provider for the browser journeys: the certified `oidc-provider` package on a
 * loopback port, with users in each portal role, signing in and consenting through
 * @books/test-identity-provider's pages (a password form, consent granted automatically).
 * Discovery, JWKS, PKCE, the token and userinfo endpoints and end_session are the package's own.
 * With `api`, it also issues JWT access tokens for the Books API's resource indicator to a public
 * client (the API's /docs, authorization code with PKCE), carrying each user's API roles in `roles`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import type { Page } from 'playwright-core';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { answerInteraction, escapeHtml, INTERACTIONS, interactionUid, page } from '@books/test-identity-provider';

export interface TestUser {
  /** Typed on the sign-in page; also the subject (`sub`). */
  login: string;
  password: string;
  email: string;
  /** Whether the provider says it verified the e-mail (email_verified); true unless set. */
  emailVerified?: boolean;
  name: string;
  groups: string[];
  /** The Books API's roles (Books.Read, Books.Write) in the API's access tokens; none unless set. */
  apiRoles?: string[];
}

/** A user in the portal's roles by `groups`, with a fresh password and the e-mail <login>@example.com. */
export function testUser(login: string, name: string, groups: string[], extra: Partial<TestUser> = {}): TestUser {
  return { login, password: randomUUID(), email: `${login}@example.com`, name, groups, ...extra };
}

/** Signs the user in on the provider's sign-in page, where the page has just been sent. */
export async function fillSignInForm(signInPage: Page, user: TestUser): Promise<void> {
  await signInPage.getByLabel('Username').fill(user.login);
  await signInPage.getByLabel('Password').fill(user.password);
  await signInPage.getByRole('button', { name: 'Sign in' }).click();
}

/** The Books API as a resource server of this provider, with a public client for its /docs. */
export interface TestApiResource {
  /** The resource indicator: the `aud` of the API's access tokens (AUTH_OIDC_AUDIENCE). */
  audience: string;
  /** The /docs client (AUTH_OIDC_DOCS_CLIENT_ID): public, authorization code with PKCE. */
  docsClientId: string;
  /** <API origin>/docs/static/oauth2-redirect.html */
  docsRedirectUri: string;
}

export interface TestClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
}

export interface TestIdentityProvider {
  issuer: string;
  close(): Promise<void>;
}

/** Starts the provider on http://127.0.0.1:<port>; the port must be known first, as the issuer includes it. */
export async function startTestIdentityProvider(options: {
  port: number;
  users: readonly TestUser[];
  client: TestClient;
  api?: TestApiResource;
}): Promise<TestIdentityProvider> {
  const api = options.api;
  const issuer = `http://127.0.0.1:${options.port}`;
  const users = new Map(options.users.map((user) => [user.login, user]));
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const configuration: Configuration = {
    clients: [
      {
        client_id: options.client.clientId,
        client_secret: options.client.clientSecret,
        redirect_uris: [options.client.redirectUri],
        post_logout_redirect_uris: [options.client.postLogoutRedirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      ...(api === undefined
        ? []
        : [
            {
              client_id: api.docsClientId,
              redirect_uris: [api.docsRedirectUri],
              grant_types: ['authorization_code'],
              response_types: ['code' as const],
              token_endpoint_auth_method: 'none' as const,
            },
          ]),
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test-op-key' }] },
    cookies: { keys: [crypto.randomUUID()] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username'],
      groups: ['groups'],
    },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      ...(api === undefined
        ? {}
        : {
            resourceIndicators: {
              enabled: true,
              // Only the /docs client gets the API's tokens without naming the resource; the portal's stay opaque.
              defaultResource: (ctx: KoaContextWithOIDC) =>
                ctx.oidc.client?.clientId === api.docsClientId ? api.audience : undefined,
              useGrantedResource: () => true,
              getResourceServerInfo: (_ctx: KoaContextWithOIDC, indicator: string) => {
                if (indicator !== api.audience) throw new errors.InvalidTarget();
                return {
                  scope: 'Books.Read Books.Write',
                  audience: api.audience,
                  accessTokenFormat: 'jwt' as const,
                  accessTokenTTL: 900,
                  jwt: { sign: { alg: 'RS256' as const } },
                };
              },
            },
          }),
      rpInitiatedLogout: {
        enabled: true,
        logoutSource(ctx: KoaContextWithOIDC, form: string) {
          ctx.body = page(
            'Sign out of the test identity provider?',
            `${form}<button type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>`,
          );
        },
      },
    },
    interactions: INTERACTIONS,
    // The API's access tokens carry the user's API roles, as Entra ID's app roles do.
    extraTokenClaims: (_ctx, token) => {
      if (api === undefined || !('accountId' in token) || token.resourceServer?.audience !== api.audience)
        return undefined;
      return { roles: users.get(token.accountId)?.apiRoles ?? [] };
    },
    renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = page('Identity provider error', `<pre>${escapeHtml(JSON.stringify(out))}</pre>`);
    },
    findAccount(_ctx, sub) {
      const user = users.get(sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          email: user.email,
          email_verified: user.emailVerified ?? true,
          name: user.name,
          preferred_username: user.login,
          groups: user.groups,
        }),
      };
    },
  };
  const provider = new Provider(issuer, configuration);
  const providerHandler = provider.callback();

  const server: Server = createServer((request, response) => {
    const uid = interactionUid(request.url ?? '');
    if (uid === undefined) void providerHandler(request, response);
    else answerInteraction(provider, users, request, response, uid);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
