/**
 * A real OpenID Provider for the API's tests: the certified `oidc-provider` package (as in the
 * portal's e2e suite) on a loopback port, issuing JWT access tokens for the API's resource
 * indicator: through the client credentials grant for confidential clients, and through the
 * authorization code flow with PKCE for public clients (sign-in and consent through
 * @books/test-identity-provider's pages). Each client's or user's extra claims stand in for what Entra ID or Keycloak
 * would add (roles, scp, realm_access). The provider can change its keys (rotation) and be made to
 * fail (an outage), and counts the discovery and key set fetches.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { type ClientMetadata, type Configuration } from 'oidc-provider';
import { answerInteraction, INTERACTIONS, interactionUid } from '@books/test-identity-provider';

export const RESOURCE = 'api://books';

export interface TestProviderClient {
  readonly clientId: string;
  /** Claims added to every access token of this client. */
  readonly claims?: Record<string, unknown>;
  /** A public client (no secret, PKCE) of the authorization code flow, redirecting here. */
  readonly redirectUri?: string;
}

export interface TestProviderUser {
  /** Typed on the sign-in page; also the subject (`sub`). */
  readonly login: string;
  readonly password: string;
  /** Claims added to every access token issued for this user. */
  readonly claims?: Record<string, unknown>;
}

export interface SigningKey {
  readonly jwk: JWK;
}

/** A private signing key for the provider. */
export async function signingKey(alg: 'RS256' | 'PS256' | 'ES256', kid: string): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  return { jwk: { ...(await exportJWK(privateKey)), alg, use: 'sig', kid } };
}

const SECRET = 'test-client-secret-generated-at-run-time'.padEnd(43, 'x');

function clientMetadata(client: TestProviderClient, alg: 'RS256'): ClientMetadata {
  if (client.redirectUri !== undefined) {
    return {
      client_id: client.clientId,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      redirect_uris: [client.redirectUri],
      id_token_signed_response_alg: alg,
    };
  }
  return {
    client_id: client.clientId,
    client_secret: SECRET,
    grant_types: ['client_credentials'],
    redirect_uris: [],
    response_types: [],
    id_token_signed_response_alg: alg,
  };
}

export class TestProvider {
  readonly issuer: string;
  /** GET requests of the key set since start (whatever the answer). */
  jwksFetches = 0;
  /** Requests of the discovery document since start (whatever the answer). */
  discoveryFetches = 0;
  /** The query of every authorization request, oldest first. */
  readonly authorizationRequests: URLSearchParams[] = [];
  /** The published keys; the first one signs. */
  keys: readonly SigningKey[] = [];
  private provider: Provider | undefined;
  /** While set, every request is answered 503 (the provider is down but the port answers). */
  down = false;
  /** While set, only the key set is answered 503 (an outage of the key endpoint). */
  jwksDown = false;
  private readonly clients: TestProviderClient[];
  private readonly users: Map<string, TestProviderUser>;

  private constructor(
    private readonly server: Server,
    readonly port: number,
    clients: readonly TestProviderClient[],
    users: readonly TestProviderUser[],
  ) {
    this.issuer = `http://127.0.0.1:${port}`;
    this.clients = [...clients];
    this.users = new Map(users.map((user) => [user.login, user]));
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const url = new URL(request.url ?? '/', this.issuer);
      const jwks = url.pathname.startsWith('/jwks');
      if (jwks) this.jwksFetches += 1;
      if (url.pathname === '/.well-known/openid-configuration') this.discoveryFetches += 1;
      if (url.pathname === '/auth') this.authorizationRequests.push(url.searchParams);
      if (this.down || (jwks && this.jwksDown) || this.provider === undefined) {
        response.writeHead(503, { 'content-type': 'text/plain' }).end('down');
        return;
      }
      const interaction = interactionUid(request.url ?? '/');
      if (interaction === undefined) void this.provider.callback()(request, response);
      else answerInteraction(this.provider, this.users, request, response, interaction);
    });
  }

  static async start(
    clients: readonly TestProviderClient[],
    keys: readonly SigningKey[],
    users: readonly TestProviderUser[] = [],
  ): Promise<TestProvider> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const provider = new TestProvider(server, (server.address() as AddressInfo).port, clients, users);
    provider.useKeys(keys);
    return provider;
  }

  /** Registers a public client of the authorization code flow (a browser app such as /docs). */
  addPublicClient(clientId: string, redirectUri: string): void {
    this.clients.push({ clientId, redirectUri });
    this.useKeys(this.keys);
  }

  /** Publishes `keys` and signs new tokens with the first one (a rotation). */
  useKeys(keys: readonly SigningKey[]): void {
    this.keys = keys;
    const alg = keys[0]!.jwk.alg as 'RS256';
    const algorithms = [...new Set(keys.map((key) => key.jwk.alg!))];
    const clientClaims = new Map(this.clients.map((client) => [client.clientId, client.claims]));
    const configuration: Configuration = {
      clients: this.clients.map((client) => clientMetadata(client, alg)),
      jwks: { keys: keys.map((key) => key.jwk) },
      cookies: { keys: ['test-provider-cookie-key-not-a-secret'] },
      enabledJWA: { idTokenSigningAlgValues: algorithms as never },
      pkce: { required: () => true },
      clientBasedCORS: (_ctx, origin, client) =>
        client.redirectUris?.some((uri) => new URL(uri).origin === origin) ?? false,
      interactions: INTERACTIONS,
      findAccount: (_ctx, sub) => (this.users.has(sub) ? { accountId: sub, claims: () => ({ sub }) } : undefined),
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => RESOURCE,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, indicator) => ({
            scope: 'Books.Read Books.Write',
            audience: indicator,
            accessTokenFormat: 'jwt',
            accessTokenTTL: 300,
            jwt: { sign: { alg: alg as 'RS256' } },
          }),
        },
      },
      ttl: { ClientCredentials: 300 },
      extraTokenClaims: (ctx, token) => {
        const accountId = 'accountId' in token ? token.accountId : undefined;
        if (typeof accountId === 'string') return this.users.get(accountId)?.claims;
        return clientClaims.get(String(ctx.oidc.client?.clientId));
      },
    };
    this.provider = new Provider(this.issuer, configuration);
  }

  /** An access token for `clientId`, for the API's resource unless another is named. */
  async token(clientId: string, options: { scope?: string; resource?: string } = {}): Promise<string> {
    const response = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:${SECRET}`).toString('base64')}` },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        resource: options.resource ?? RESOURCE,
        ...(options.scope === undefined ? {} : { scope: options.scope }),
      }),
    });
    const body = (await response.json()) as { access_token?: string };
    if (response.status !== 200 || body.access_token === undefined) {
      throw new Error(`token for ${clientId}: ${response.status} ${JSON.stringify(body)}`);
    }
    return body.access_token;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
