import { decodeProtectedHeader, errors, jwtVerify } from 'jose';
import { TokenRejectedError, type Principal } from '../token-service.js';
import { ASYMMETRIC_ALGORITHMS, ProviderUnavailableError, type ProviderKeys } from './provider-keys.js';
import { rolesFrom } from './provider-roles.js';

/** The contract's clock tolerance for exp and nbf of provider tokens. */
const CLOCK_TOLERANCE_SECONDS = 60;

export interface ProviderTokenSettings {
  /** AUTH_OIDC_ISSUER: the `iss` the provider's tokens carry. */
  readonly issuer: string;
  /** AUTH_OIDC_AUDIENCE: `aud` must contain it. */
  readonly audience: string;
  /** AUTH_OIDC_ROLES_CLAIM: a dot-separated claim path; unset: `roles` and `scp`. */
  readonly rolesClaim: string | undefined;
}

/**
 * Verifies bearer tokens the identity provider issued, with its published keys only: an
 * asymmetric algorithm the provider uses, `iss` equal to the issuer, `aud` holding the audience,
 * `exp` required and `nbf` honoured, both within the clock tolerance. Throws TokenRejectedError
 * (401) or ProviderUnavailableError (503: no keys could be had yet).
 */
export function createProviderTokenVerifier(settings: ProviderTokenSettings, keys: ProviderKeys) {
  return {
    issuer: settings.issuer,
    async verify(token: string): Promise<Principal> {
      // A token whose algorithm cannot be the provider's (alg none, HS256) is refused before any
      // key is looked up, so it never waits for, or is told about, the provider's availability.
      let algorithm: unknown;
      try {
        algorithm = decodeProtectedHeader(token).alg;
      } catch {
        throw new TokenRejectedError('invalid');
      }
      if (typeof algorithm !== 'string' || !ASYMMETRIC_ALGORITHMS.includes(algorithm)) {
        throw new TokenRejectedError('invalid');
      }
      let payload: Record<string, unknown>;
      try {
        const { algorithms } = await keys.current();
        ({ payload } = await jwtVerify(token, keys.getKey, {
          algorithms: [...algorithms],
          issuer: settings.issuer,
          audience: settings.audience,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          requiredClaims: ['sub', 'exp', 'iss', 'aud'],
        }));
      } catch (error) {
        if (error instanceof ProviderUnavailableError) throw error;
        throw new TokenRejectedError(error instanceof errors.JWTExpired ? 'expired' : 'invalid');
      }
      const { sub } = payload;
      if (typeof sub !== 'string' || sub.length === 0) throw new TokenRejectedError('invalid');
      return { sub, roles: rolesFrom(payload, settings.rolesClaim) };
    },
  };
}
