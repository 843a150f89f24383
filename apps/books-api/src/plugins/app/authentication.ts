import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  onRequestAsyncHookHandler,
  RouteOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import Type from 'typebox';
import { bearerToken } from '../../auth/bearer-header.js';
import { PASSWORD_SECURITY_SCHEME } from '../../openapi/security-schemes.js';
import { createCredentialCheck } from '../../auth/credential-check.js';
import type { LoginThrottleSettings } from '../../auth/login-throttle.js';
import type { VerificationSlotSettings } from '../../auth/verification-slots.js';
import { usesOtherParameters } from '../../auth/password-hashing.js';
import { BOOKS_READ, BOOKS_WRITE } from '../../auth/roles.js';
import { loadSigningKeys, type TokenSigningSettings } from '../../auth/signing-keys.js';
import {
  TokenRejectedError,
  createTokenService,
  type Principal,
  type TokenClaimSettings,
} from '../../auth/token-service.js';
import { loadUserDirectory } from '../../auth/users-file.js';
import { decodeJwt } from 'jose';
import { createProviderKeys, ProviderUnavailableError } from '../../auth/oidc/provider-keys.js';
import type { ProviderDocsSettings } from '../../auth/oidc/provider-docs.js';
import { createProviderTokenVerifier, type ProviderTokenSettings } from '../../auth/oidc/provider-tokens.js';
import {
  identityProviderUnavailable,
  insufficientScope,
  invalidToken,
  notAuthenticated,
  tokenExpired,
} from '../../errors.js';

/**
 * Authentication, in one place: the users file and signing keys (read at start; a bad one
 * stops the start), bearer-token verification, `request.principal`, and the per-route policy
 * that decides which routes need a token. Routes never verify tokens: they declare
 * `config.bearerAuth` (or sit in a scope that applies `app.auth.routePolicy`) and read
 * `request.principal`. The pure pieces (hashing, tokens, users file) live in src/auth/.
 */

interface AuthSettings {
  readonly usersFile: string | undefined;
  readonly tokenSigning: TokenSigningSettings;
  readonly tokenClaims: TokenClaimSettings;
  /** AUTH_OIDC_*: tokens from an identity provider are accepted too; undefined: only the API's own. */
  readonly identityProvider:
    | (ProviderTokenSettings & {
        /** AUTH_OIDC_DOCS_*: /docs signs in with the provider; undefined: only the password login. */
        readonly docs: ProviderDocsSettings | undefined;
      })
    | undefined;
  /** AUTH_REQUIRED: every books route needs a token (reads Books.Read, writes Books.Write). */
  readonly authRequired: boolean;
  readonly loginThrottle: LoginThrottleSettings;
  readonly passwordVerifications: VerificationSlotSettings;
}

interface BearerAuthRouteConfig {
  /**
   * 'optional': a request with an Authorization header must carry a valid token with
   * `role` (the protected variant); a request without one is public.
   * 'required': every request must.
   */
  mode: 'optional' | 'required';
  role?: string;
}

const READ_METHODS = new Set(['GET', 'HEAD']);

const authErrorResponses = {
  401: { ...Type.Ref('HTTPError'), description: 'Missing, invalid or expired token (`WWW-Authenticate: Bearer`)' },
  403: { ...Type.Ref('HTTPError'), description: 'The token lacks the role (`Insufficient scope`)' },
};

/** Reads need Books.Read, writes Books.Write, unless a route names its role. */
function defaultRoleFor(method: string): string {
  return READ_METHODS.has(method) ? BOOKS_READ : BOOKS_WRITE;
}

function strictestRole(methods: string[]): string {
  const roles = new Set(methods.map(defaultRoleFor));
  return roles.size === 1 ? [...roles][0]! : defaultRoleFor('POST');
}

/** Overrides of the provider key timings (tests); the defaults are the contract's. */
export type ProviderKeyTimings = Pick<
  Parameters<typeof createProviderKeys>[0],
  'refetchIntervalMs' | 'refreshIntervalMs'
>;

async function createAuthService(
  settings: AuthSettings,
  log: FastifyBaseLogger,
  providerKeyTimings: ProviderKeyTimings = {},
) {
  const users = await loadUserDirectory(settings.usersFile);
  for (const user of users.values()) {
    if (usesOtherParameters(user.passwordHash)) {
      log.warn(
        { user: user.username },
        'password hash uses other argon2id parameters than hash-password: its login time differs from the unknown-user time',
      );
    }
  }
  const credentials = await createCredentialCheck(users);
  const keys = await loadSigningKeys(settings.tokenSigning);
  /** null when HS256 is chosen and JWT_SECRET_KEY is unset: token login is not configured. */
  const tokens = keys === null ? null : createTokenService(keys, settings.tokenClaims);
  const provider = settings.identityProvider;
  const providerKeys =
    provider === undefined
      ? undefined
      : createProviderKeys({ issuer: provider.issuer, ...providerKeyTimings }, (message, error) =>
          log.warn({ err: error, issuer: provider.issuer }, message),
        );
  const providerTokens =
    provider === undefined || providerKeys === undefined ? null : createProviderTokenVerifier(provider, providerKeys);
  log.info(
    {
      users: users.size,
      algorithm: settings.tokenSigning.algorithm,
      tokenLogin: tokens !== null,
      authRequired: settings.authRequired,
      identityProvider: provider?.issuer,
    },
    tokens === null ? 'token login not configured: POST /token answers 503 (set JWT_SECRET_KEY)' : 'token login ready',
  );

  /** The verifier a token's (unverified) `iss` names: the provider's, or the API's own; null when that one is off. */
  function verifierFor(token: string) {
    let issuer: unknown;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      throw invalidToken();
    }
    return providerTokens !== null && issuer === providerTokens.issuer ? providerTokens : tokens;
  }

  /** Verifies the `Authorization` header; throws the contract's 401 (or 503 when the provider has no keys yet). */
  async function authenticate(authorization: string | undefined): Promise<Principal> {
    // FastAPI's OAuth2PasswordBearer words the absent header this way.
    if (authorization === undefined) throw notAuthenticated();
    const token = bearerToken(authorization);
    if (token === null) throw invalidToken();
    const verifier = verifierFor(token);
    if (verifier === null) throw invalidToken();
    try {
      return await verifier.verify(token);
    } catch (error) {
      if (error instanceof TokenRejectedError) throw error.reason === 'expired' ? tokenExpired() : invalidToken();
      if (error instanceof ProviderUnavailableError) throw identityProviderUnavailable(error.retryAfterSeconds);
      throw error;
    }
  }

  /**
   * An onRoute hook for a scope whose routes AUTH_REQUIRED protects (the books routes): with
   * AUTH_REQUIRED every route of the scope requires a token (reads Books.Read, writes
   * Books.Write); otherwise only routes that declare `bearerAuth` themselves verify tokens.
   * The decision lands in the route's own config, which the guard reads, and in its OpenAPI
   * security requirement.
   */
  function routePolicy(route: RouteOptions): void {
    const declared = route.config?.bearerAuth;
    const methods = [route.method].flat().map((method) => method.toUpperCase());
    const bearerAuth: BearerAuthRouteConfig | undefined = settings.authRequired
      ? { mode: 'required', role: declared?.role ?? strictestRole(methods) }
      : declared;
    if (bearerAuth === undefined) return;
    route.config = { ...route.config, bearerAuth };
    // `{}` lists anonymous access as an alternative: the optional (protected-variant) routes.
    const bearer: Record<string, string[]> = { [PASSWORD_SECURITY_SCHEME]: [] };
    const security = bearerAuth.mode === 'required' ? [bearer] : [{}, bearer];
    const schema = route.schema ?? {};
    route.schema = {
      ...schema,
      security,
      response: { ...(schema.response as object | undefined), ...authErrorResponses },
    };
  }

  return {
    settings,
    credentials,
    tokens,
    /** The RS256 public key for /.well-known/jwks.json; undefined with HS256. */
    publicJwk: keys?.publicJwk,
    /** The identity provider's discovery and keys (AUTH_OIDC_ISSUER); undefined when none is configured. */
    providerKeys,
    authenticate,
    routePolicy,
  };
}

/** What `app.auth` offers, derived from the implementation above. */
type AuthService = Awaited<ReturnType<typeof createAuthService>>;

declare module 'fastify' {
  interface FastifyInstance {
    auth: AuthService;
  }
  interface FastifyRequest {
    /** Set by the authentication plugin when the request carried a valid bearer token; null otherwise. */
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    bearerAuth?: BearerAuthRouteConfig;
  }
}

async function authentication(
  app: FastifyInstance,
  options: AuthSettings & { providerKeyTimings?: ProviderKeyTimings },
) {
  const { providerKeyTimings, ...settings } = options;
  const auth = await createAuthService(settings, app.log, providerKeyTimings);
  if (auth.providerKeys !== undefined) {
    const keys = auth.providerKeys;
    // Discovery and keys are fetched once the app is ready, in the background: a provider that is
    // down never stops the start (its tokens answer 503 until keys arrive, docs/authentication.md).
    app.addHook('onReady', async () => {
      void keys.start();
    });
    app.addHook('onClose', async () => keys.stop());
  }

  /** Verifies the token a guarded route was sent and checks its role; throws the error to answer. */
  async function admit(request: FastifyRequest, bearerAuth: BearerAuthRouteConfig, authorization: string | undefined) {
    const principal = await auth.authenticate(authorization);
    const role = bearerAuth.role ?? defaultRoleFor(request.method);
    if (!principal.roles.includes(role)) throw insufficientScope();
    request.principal = principal;
  }

  /**
   * Guards the routes whose config declares `bearerAuth`: 'required' always verifies,
   * 'optional' only when an Authorization header is present. A rejection becomes the request's
   * answer through the error handler.
   */
  const bearerGuard: onRequestAsyncHookHandler = async function bearerGuard(request) {
    const bearerAuth = request.routeOptions.config.bearerAuth;
    const authorization = request.headers.authorization;
    if (bearerAuth === undefined || (bearerAuth.mode === 'optional' && authorization === undefined)) return;
    await admit(request, bearerAuth, authorization);
  };

  app.decorateRequest('principal', null);
  app.addHook('onRequest', bearerGuard);
  app.decorate('auth', auth);
}

export default fp(authentication, { name: 'authentication', fastify: '5.x' });
