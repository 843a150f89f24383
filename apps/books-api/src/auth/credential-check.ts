import { randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from './password-hashing.js';
import { isUserNameTooLong } from './user-name.js';
import type { UserAccount, UserDirectory } from './users-file.js';

interface CredentialCheck {
  /** The account when the password matches; null for a wrong password and for an unknown user alike. */
  check(username: string, password: string): Promise<UserAccount | null>;
}

/**
 * The hash an unknown user name is checked against, made with the same parameters as real
 * hashes: an unknown user name then costs one full argon2id verification too, so the response
 * time does not tell an attacker which user names exist. Made once per process, on first use,
 * and shared by every app the process builds: it depends on nothing an app is configured with,
 * and making it is the costliest step of building an app (tests build many).
 */
let dummyHash: Promise<string> | undefined;

function processDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(32).toString('base64url'));
  return dummyHash;
}

/** Builds the password check; the dummy hash is ready before the check is handed out. */
export async function createCredentialCheck(users: UserDirectory): Promise<CredentialCheck> {
  const unknownUserHash = await processDummyHash();
  return {
    async check(username, password) {
      // A name over the limit is no user's: checked against the dummy hash like an unknown one.
      const account = isUserNameTooLong(username) ? undefined : users.get(username);
      const matches = await verifyPassword(account?.passwordHash ?? unknownUserHash, password);
      return account !== undefined && matches ? account : null;
    },
  };
}
