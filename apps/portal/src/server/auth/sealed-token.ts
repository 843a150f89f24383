import 'server-only';
import { hkdfSync } from 'node:crypto';
import { EncryptJWT, jwtDecrypt, type JWTPayload } from 'jose';

/**
 * Encrypted, expiring tokens for the portal's cookies (jose JWE, dir + A256GCM). Each purpose
 * gets its own key derived from PORTAL_SESSION_SECRET with HKDF, so a token sealed for one
 * cookie never opens as another. Tampering, another secret or expiry all read as "no token".
 * No 'server-only' import: the browser journeys forge expired cookies with it.
 */

export type SealPurpose = 'session' | 'sign-in';

const keys = new Map<string, Uint8Array>();

function keyFor(secret: string, purpose: SealPurpose): Uint8Array {
  const cacheKey = `${purpose}\u0000${secret}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = new Uint8Array(hkdfSync('sha256', secret, 'books-portal', `portal ${purpose} cookie v1`, 32));
    keys.set(cacheKey, key);
  }
  return key;
}

export async function seal(
  payload: JWTPayload,
  options: { secret: string; purpose: SealPurpose; expiresAt: Date },
): Promise<string> {
  return new EncryptJWT(payload)
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(options.expiresAt.getTime() / 1000))
    .encrypt(keyFor(options.secret, options.purpose));
}

/** The payload, or undefined when the token is malformed, tampered with, sealed otherwise or expired. */
export async function unseal(
  token: string,
  options: { secret: string; purpose: SealPurpose },
): Promise<JWTPayload | undefined> {
  try {
    const { payload } = await jwtDecrypt(token, keyFor(options.secret, options.purpose), {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
    });
    return payload;
  } catch {
    return undefined;
  }
}
