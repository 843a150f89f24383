/**
 * Run-time secrets, keys and users for the token login tests. Nothing here is a real
 * secret: every key and secret is generated when the tests run.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { hashPassword } from '../../src/auth/password-hashing.js';
import { defaultConfig, type Config } from '../../src/config.js';

export const READER = { username: 'reader', password: 'reader-password-1', roles: ['Books.Read'] };
export const WRITER = { username: 'writer', password: 'writer-password-2', roles: ['Books.Read', 'Books.Write'] };
export const NOBODY = { username: 'nobody', password: 'nobody-password-3', roles: [] as string[] };

export interface TestUser {
  username: string;
  password: string;
  roles: string[];
}

let scratch: Promise<string> | undefined;
/** One temporary folder per test process for generated files. */
export function scratchDir(): Promise<string> {
  scratch ??= mkdtemp(join(tmpdir(), 'books-auth-test-'));
  return scratch;
}

export async function writeScratchFile(name: string, content: string): Promise<string> {
  const path = join(await scratchDir(), `${randomBytes(4).toString('hex')}-${name}`);
  await writeFile(path, content);
  return path;
}

let defaultUsersFile: Promise<string> | undefined;
/** A users file with READER, WRITER and NOBODY (hashed once per test process). */
export function usersFile(): Promise<string> {
  defaultUsersFile ??= writeUsersFile([READER, WRITER, NOBODY]);
  return defaultUsersFile;
}

export async function writeUsersFile(users: TestUser[]): Promise<string> {
  const entries = await Promise.all(
    users.map(async ({ username, password, roles }) => ({
      username,
      password_hash: await hashPassword(password),
      roles,
    })),
  );
  return writeScratchFile('users.json', JSON.stringify(entries));
}

export function newSecret(bytes = 48): string {
  return randomBytes(bytes).toString('base64url');
}

export interface RsaKeyFiles {
  privateKeyFile: string;
  publicKeyFile: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

export async function writeRsaKeyFiles(): Promise<RsaKeyFiles> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return {
    privateKeyFile: await writeScratchFile('private.pem', await exportPKCS8(privateKey)),
    publicKeyFile: await writeScratchFile('public.pem', await exportSPKI(publicKey)),
    privateKey,
    publicKey,
  };
}

type AuthConfig = Config['auth'];

/** A test app configuration with token login settings changed. */
export function withAuth(overrides: Partial<AuthConfig>): Partial<Config> {
  return { auth: { ...defaultConfig().auth, ...overrides } };
}

/** HS256 with a fresh secret and the default users: the common test setup. */
export async function hs256Config(secret = newSecret(), overrides: Partial<AuthConfig> = {}): Promise<Partial<Config>> {
  return withAuth({ usersFile: await usersFile(), tokenSigning: { algorithm: 'HS256', secret }, ...overrides });
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export function loginForm(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** POST /token with a urlencoded form; `remoteAddress` picks the client for rate limiting. */
export function login(app: FastifyInstance, fields: Record<string, string>, remoteAddress?: string) {
  return app.inject({
    method: 'POST',
    url: '/token',
    headers: FORM,
    payload: loginForm(fields),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

export async function tokenFor(app: FastifyInstance, user: TestUser): Promise<string> {
  const response = await login(app, { username: user.username, password: user.password });
  if (response.statusCode !== 200)
    throw new Error(`login of ${user.username} failed: ${response.statusCode} ${response.body}`);
  return (JSON.parse(response.body) as { access_token: string }).access_token;
}

export function listBooks(app: FastifyInstance, authorization?: string, query = '') {
  return app.inject({
    method: 'GET',
    url: `/api/v1/books${query}`,
    headers: authorization === undefined ? {} : { authorization },
  });
}
