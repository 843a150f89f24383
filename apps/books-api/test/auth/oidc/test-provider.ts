/**
 * A real OpenID Provider for the API's tests: the certified `oidc-provider` package (as in the
 * portal's e2e suite) on a loopback port, issuing JWT access tokens for the API's resource
 * indicator through the client credentials grant. Each client's extra claims stand in for what
 * Entra ID or Keycloak would add (roles, scp, realm_access). The provider can be stopped and
 * started again on its port with other keys (rotation, an outage), and counts the key set fetches.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

export const RESOURCE = 'api://books';

export interface TestProviderClient {
  readonly clientId: string;
  /** Claims added to every access token of this client. */
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

export class TestProvider {
  readonly issuer: string;
  /** GET requests of the key set since start (whatever the answer). */
  jwksFetches = 0;
  /** Requests of the discovery document since start (whatever the answer). */
  discoveryFetches = 0;
  /** The published keys; the first one signs. */
  keys: readonly SigningKey[] = [];
  private provider: Provider | undefined;
  /** While set, every request is answered 503 (the provider is down but the port answers). */
  down = false;
  /** While set, only the key set is answered 503 (an outage of the key endpoint). */
  jwksDown = false;

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly clients: readonly TestProviderClient[],
  ) {
    this.issuer = `http://127.0.0.1:${port}`;
    server.on('request', (request, response) => {
      const jwks = request.url?.startsWith('/jwks') === true;
      if (jwks) this.jwksFetches += 1;
      if (request.url?.startsWith('/.well-known/openid-configuration')) this.discoveryFetches += 1;
      if (this.down || (jwks && this.jwksDown) || this.provider === undefined) {
        response.writeHead(503, { 'content-type': 'text/plain' }).end('down');
        return;
      }
      void this.provider.callback()(request, response);
    });
  }

  static async start(clients: readonly TestProviderClient[], keys: readonly SigningKey[]): Promise<TestProvider> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const provider = new TestProvider(server, (server.address() as AddressInfo).port, clients);
    provider.useKeys(keys);
    return provider;
  }

  /** Publishes `keys` and signs new tokens with the first one (a rotation). */
  useKeys(keys: readonly SigningKey[]): void {
    this.keys = keys;
    const clients = new Map(this.clients.map((client) => [client.clientId, client]));
    const algorithms = [...new Set(keys.map((key) => key.jwk.alg!))];
    const configuration: Configuration = {
      clients: this.clients.map(({ clientId }) => ({
        client_id: clientId,
        client_secret: SECRET,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        id_token_signed_response_alg: keys[0]!.jwk.alg as 'RS256',
      })),
      jwks: { keys: keys.map((key) => key.jwk) },
      enabledJWA: { idTokenSigningAlgValues: algorithms as never },
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
            jwt: { sign: { alg: keys[0]!.jwk.alg as 'RS256' } },
          }),
        },
      },
      ttl: { ClientCredentials: 300 },
      extraTokenClaims: (ctx) => clients.get(String(ctx.oidc.client?.clientId))?.claims,
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
