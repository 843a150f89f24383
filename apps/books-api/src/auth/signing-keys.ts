import { readFile } from 'node:fs/promises';
import { SignJWT, calculateJwkThumbprint, exportJWK, importPKCS8, importSPKI, jwtVerify, type JWK } from 'jose';
import { AuthStartupError } from './startup-error.js';

type TokenAlgorithm = 'HS256' | 'RS256';

/** What the token settings say, before any file is read. */
export type TokenSigningSettings =
  | { readonly algorithm: 'HS256'; readonly secret: string | undefined }
  | { readonly algorithm: 'RS256'; readonly privateKeyFile: string; readonly publicKeyFile: string };

type Key = CryptoKey | Uint8Array;

/** Keys ready for jose; `null` when HS256 is chosen but JWT_SECRET_KEY is unset (login not configured). */
export interface SigningKeys {
  readonly algorithm: TokenAlgorithm;
  readonly signingKey: Key;
  readonly verificationKey: Key;
  /** RFC 7638 thumbprint of the public key (RS256 only), sent as the token header's `kid`. */
  readonly keyId?: string;
  /** The public key as published on /.well-known/jwks.json (RS256 only). */
  readonly publicJwk?: JWK;
}

export async function loadSigningKeys(settings: TokenSigningSettings): Promise<SigningKeys | null> {
  if (settings.algorithm === 'HS256') {
    if (settings.secret === undefined) return null;
    const secret = new TextEncoder().encode(settings.secret);
    return { algorithm: 'HS256', signingKey: secret, verificationKey: secret };
  }
  return loadRsaKeyPair(settings.privateKeyFile, settings.publicKeyFile);
}

async function loadRsaKeyPair(privateKeyFile: string, publicKeyFile: string): Promise<SigningKeys> {
  const privatePem = await readPem('JWT_PRIVATE_KEY_FILE', privateKeyFile);
  const publicPem = await readPem('JWT_PUBLIC_KEY_FILE', publicKeyFile);

  let signingKey: CryptoKey;
  try {
    signingKey = await importPKCS8(privatePem, 'RS256');
  } catch (error) {
    throw new AuthStartupError(
      `JWT_PRIVATE_KEY_FILE ${privateKeyFile}: is not a PKCS#8 PEM RSA private key (${(error as Error).message}); ` +
        'make one with `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048`',
    );
  }
  let verificationKey: CryptoKey;
  try {
    verificationKey = await importSPKI(publicPem, 'RS256', { extractable: true });
  } catch (error) {
    throw new AuthStartupError(
      `JWT_PUBLIC_KEY_FILE ${publicKeyFile}: is not an SPKI PEM RSA public key (${(error as Error).message}); ` +
        'derive it with `openssl pkey -in private.pem -pubout`',
    );
  }
  await assertKeyPair(signingKey, verificationKey, privateKeyFile, publicKeyFile);

  const jwk = await exportJWK(verificationKey);
  const keyId = await calculateJwkThumbprint(jwk);
  return {
    algorithm: 'RS256',
    signingKey,
    verificationKey,
    keyId,
    publicJwk: { ...jwk, kid: keyId, alg: 'RS256', use: 'sig' },
  };
}

async function readPem(variable: string, path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new AuthStartupError(`${variable} ${path}: cannot be read (${code})`);
  }
}

/** Signs a throwaway token and verifies it: proves the two files belong together and the key is usable. */
async function assertKeyPair(
  signingKey: CryptoKey,
  verificationKey: CryptoKey,
  privateFile: string,
  publicFile: string,
) {
  let probe: string;
  try {
    probe = await new SignJWT({}).setProtectedHeader({ alg: 'RS256' }).sign(signingKey);
  } catch (error) {
    throw new AuthStartupError(
      `JWT_PRIVATE_KEY_FILE ${privateFile}: cannot sign RS256 tokens (${(error as Error).message})`,
    );
  }
  try {
    await jwtVerify(probe, verificationKey, { algorithms: ['RS256'] });
  } catch {
    throw new AuthStartupError(
      `JWT_PUBLIC_KEY_FILE ${publicFile} is not the public key of JWT_PRIVATE_KEY_FILE ${privateFile}: they must form one key pair`,
    );
  }
}
