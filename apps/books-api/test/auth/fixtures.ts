/**
 * Run-time secrets, keys and users for the token login tests. Nothing here is a real
 * secret: every key and secret is generated when the tests run.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose'
import { hashPassword } from '../../src/auth/password-hashing.js'

export const READER = { username: 'reader', password: 'reader-password-1', roles: ['Books.Read'] }
export const WRITER = { username: 'writer', password: 'writer-password-2', roles: ['Books.Read', 'Books.Write'] }
export const NOBODY = { username: 'nobody', password: 'nobody-password-3', roles: [] as string[] }

export interface TestUser {
  username: string
  password: string
  roles: string[]
}

let scratch: Promise<string> | undefined
/** One temporary folder per test process for generated files. */
export function scratchDir(): Promise<string> {
  scratch ??= mkdtemp(join(tmpdir(), 'books-auth-test-'))
  return scratch
}

export async function writeScratchFile(name: string, content: string): Promise<string> {
  const path = join(await scratchDir(), `${randomBytes(4).toString('hex')}-${name}`)
  await writeFile(path, content)
  return path
}

let defaultUsersFile: Promise<string> | undefined
/** A users file with READER, WRITER and NOBODY (hashed once per test process). */
export function usersFile(): Promise<string> {
  defaultUsersFile ??= writeUsersFile([READER, WRITER, NOBODY])
  return defaultUsersFile
}

export async function writeUsersFile(users: TestUser[]): Promise<string> {
  const entries = await Promise.all(
    users.map(async ({ username, password, roles }) => ({ username, password_hash: await hashPassword(password), roles })),
  )
  return writeScratchFile('users.json', JSON.stringify(entries))
}

export function newSecret(bytes = 48): string {
  return randomBytes(bytes).toString('base64url')
}

export interface RsaKeyFiles {
  privateKeyFile: string
  publicKeyFile: string
  privateKey: CryptoKey
  publicKey: CryptoKey
}

export async function writeRsaKeyFiles(): Promise<RsaKeyFiles> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
  return {
    privateKeyFile: await writeScratchFile('private.pem', await exportPKCS8(privateKey)),
    publicKeyFile: await writeScratchFile('public.pem', await exportSPKI(publicKey)),
    privateKey,
    publicKey,
  }
}
