import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { JWK } from 'jose';
import { bearerToken } from '../../auth/bearer-header.js';
import { createCredentialCheck, type CredentialCheck } from '../../auth/credential-check.js';
import type { LoginThrottleSettings } from '../../auth/login-throttle.js';
import { usesOtherParameters } from '../../auth/password-hashing.js';
import { BOOKS_READ, BOOKS_WRITE } from '../../auth/roles.js';
import { loadSigningKeys, type TokenSigningSettings } from '../../auth/signing-keys.js';
import { TokenRejectedError, createTokenService, type Principal, type TokenService } from '../../auth/token-service.js';
import { loadUserDirectory } from '../../auth/users-file.js';
import { forbidden, unauthorized } from '../../errors.js';

export interface AuthSettings {
  readonly usersFile: string | undefined;
  readonly tokenSigning: TokenSigningSettings;
  /** AUTH_REQUIRED: every books route needs a token (reads Books.Read, writes Books.Write). */
  readonly authRequired: boolean;
  readonly loginThrottle: LoginThrottleSettings;
}

export interface AuthService {
  readonly settings: AuthSettings;
  readonly credentials: CredentialCheck;
  /** null when HS256 is chosen and JWT_SECRET_KEY is unset: token login is not configured. */
  readonly tokens: TokenService | null;
  /** The RS256 public key for /.well-known/jwks.json; undefined with HS256. */
  readonly publicJwk: JWK | undefined;
  /** Verifies the `Authorization` header; throws the contract's 401. No store lookup. */
  authenticate(authorization: string | undefined): Promise<Principal>;
}

declare module 'fastify' {
  interface FastifyInstance {
    auth: AuthService;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD']);

async function authPlugin(app: FastifyInstance, settings: AuthSettings) {
  const users = await loadUserDirectory(settings.usersFile);
  for (const user of users.values()) {
    if (usesOtherParameters(user.passwordHash)) {
      app.log.warn(
        { user: user.username },
        'password hash uses other argon2id parameters than hash-password: its login time differs from the unknown-user time',
      );
    }
  }
  const credentials = await createCredentialCheck(users);
  const keys = await loadSigningKeys(settings.tokenSigning);
  const tokens = keys === null ? null : createTokenService(keys);
  app.log.info(
    {
      users: users.size,
      algorithm: settings.tokenSigning.algorithm,
      tokenLogin: tokens !== null,
      authRequired: settings.authRequired,
    },
    'token login ready',
  );

  async function authenticate(authorization: string | undefined): Promise<Principal> {
    // FastAPI's OAuth2PasswordBearer words the absent header this way.
    if (authorization === undefined) throw unauthorized('Not authenticated');
    const token = bearerToken(authorization);
    if (token === null || tokens === null) throw unauthorized('Invalid token');
    try {
      return await tokens.verify(token);
    } catch (error) {
      if (error instanceof TokenRejectedError) throw unauthorized(error.message);
      throw error;
    }
  }

  /**
   * Guards the routes whose config declares `bearerAuth` (plugins/app/principal.ts): 'required'
   * always verifies, 'optional' only when an Authorization header is present.
   */
  async function bearerGuard(request: FastifyRequest) {
    const bearerAuth = request.routeOptions.config.bearerAuth;
    if (bearerAuth === undefined) return;
    const authorization = request.headers.authorization;
    if (bearerAuth.mode === 'optional' && authorization === undefined) return;
    const principal = await authenticate(authorization);
    const role = bearerAuth.role ?? defaultRoleFor(request.method);
    // Thrown, not sent: the request stops here and the error handler answers.
    if (!principal.roles.includes(role)) throw forbidden('Insufficient scope');
    request.principal = principal;
  }

  app.addHook('onRequest', bearerGuard);
  app.decorate('auth', {
    settings,
    credentials,
    tokens,
    publicJwk: keys?.publicJwk,
    authenticate,
  } satisfies AuthService);
}

/** Reads need Books.Read, writes Books.Write, unless a route names its role. */
export function defaultRoleFor(method: string): string {
  return READ_METHODS.has(method) ? BOOKS_READ : BOOKS_WRITE;
}

export default fp(authPlugin, { name: 'auth', fastify: '5.x', dependencies: ['principal'] });
