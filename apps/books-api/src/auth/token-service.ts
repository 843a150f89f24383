import { SignJWT, errors, jwtVerify } from 'jose';
import type { SigningKeys } from './signing-keys.js';

/** Token lifetime fixed by the specification (15 minutes). */
const TOKEN_LIFETIME_SECONDS = 900;

/**
 * How far in the future a token's `iat` may be: replicas' clocks differ a little, and a token issued
 * by one is verified by another at once. Beyond it the token is refused (the contract's "Token times").
 */
const ISSUED_AT_TOLERANCE_SECONDS = 60;

export interface Principal {
  readonly sub: string;
  readonly roles: readonly string[];
}

interface IssuedToken {
  readonly access_token: string;
  readonly token_type: 'bearer';
  readonly expires_in: number;
}

/** Why a bearer token was refused; the guard maps it to the contract's 401 detail. */
type TokenRejection = 'expired' | 'invalid';

export class TokenRejectedError extends Error {
  override readonly name = 'TokenRejectedError';
  constructor(readonly reason: TokenRejection) {
    super(reason === 'expired' ? 'Token expired' : 'Invalid token');
  }
}

interface TokenService {
  issue(principal: Principal): Promise<IssuedToken>;
  /** Verifies signature, algorithm and expiry with the configured key only: no store lookup. */
  verify(token: string): Promise<Principal>;
}

/** The API's own tokens name it as their issuer and itself as their audience (JWT_ISSUER, JWT_AUDIENCE). */
export interface TokenClaimSettings {
  readonly issuer: string;
  readonly audience: string;
}

export function createTokenService(keys: SigningKeys, claims: TokenClaimSettings): TokenService {
  const header =
    keys.keyId === undefined
      ? { alg: keys.algorithm, typ: 'JWT' }
      : { alg: keys.algorithm, typ: 'JWT', kid: keys.keyId };
  return {
    async issue({ sub, roles }) {
      const issuedAt = Math.floor(Date.now() / 1000);
      const accessToken = await new SignJWT({ roles: [...roles] })
        .setProtectedHeader(header)
        .setSubject(sub)
        .setIssuer(claims.issuer)
        .setAudience(claims.audience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + TOKEN_LIFETIME_SECONDS)
        .sign(keys.signingKey);
      return { access_token: accessToken, token_type: 'bearer', expires_in: TOKEN_LIFETIME_SECONDS };
    },

    async verify(token) {
      let payload: Record<string, unknown>;
      try {
        // Pinning `algorithms` is what defeats `alg: none` and HS256/RS256 confusion; `issuer` and
        // `audience` refuse a token another service (or another deployment sharing a key) made.
        ({ payload } = await jwtVerify(token, keys.verificationKey, {
          algorithms: [keys.algorithm],
          issuer: claims.issuer,
          audience: claims.audience,
          requiredClaims: ['sub', 'exp', 'iss', 'aud'],
        }));
      } catch (error) {
        throw new TokenRejectedError(error instanceof errors.JWTExpired ? 'expired' : 'invalid');
      }
      // jose has checked that an `iat` is a NumericDate. Its own check of `iat` (maxTokenAge) applies
      // its clock tolerance to `exp` as well, and the API's own tokens expire exactly when they say.
      const { iat } = payload;
      if (typeof iat === 'number' && iat > Math.floor(Date.now() / 1000) + ISSUED_AT_TOLERANCE_SECONDS) {
        throw new TokenRejectedError('invalid');
      }
      const { sub, roles = [] } = payload;
      if (typeof sub !== 'string' || sub.length === 0) throw new TokenRejectedError('invalid');
      if (!Array.isArray(roles) || !roles.every((role) => typeof role === 'string'))
        throw new TokenRejectedError('invalid');
      return { sub, roles };
    },
  };
}
