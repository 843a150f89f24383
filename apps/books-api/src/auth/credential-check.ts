import { randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from './password-hashing.js';
import type { UserAccount, UserDirectory } from './users-file.js';

export interface CredentialCheck {
  /** The account when the password matches; null for a wrong password and for an unknown user alike. */
  check(username: string, password: string): Promise<UserAccount | null>;
}

/**
 * Builds the password check. The dummy hash is made once, here, with the same parameters as
 * real hashes: an unknown user name then costs one full argon2id verification too, so the
 * response time does not tell an attacker which user names exist.
 */
export async function createCredentialCheck(users: UserDirectory): Promise<CredentialCheck> {
  const dummyHash = await hashPassword(randomBytes(32).toString('base64url'));
  return {
    async check(username, password) {
      const account = users.get(username);
      const matches = await verifyPassword(account?.passwordHash ?? dummyHash, password);
      return account !== undefined && matches ? account : null;
    },
  };
}
