import { readFile } from 'node:fs/promises';
import { describeArgon2idHashProblem } from './password-hashing.js';
import { AuthStartupError } from './startup-error.js';
import { isUserNameTooLong, MAX_USERNAME_CHARACTERS } from './user-name.js';

export interface UserAccount {
  readonly username: string;
  readonly passwordHash: string;
  readonly roles: readonly string[];
}

/** Users by exact user name. Read once at start; logins never touch the file again. */
export type UserDirectory = ReadonlyMap<string, UserAccount>;

/** A users file that cannot be used; the message names the file and the offending entry. */
class UsersFileError extends AuthStartupError {
  override readonly name = 'UsersFileError';
}

const ENTRY_FIELDS = new Set(['username', 'password_hash', 'roles']);

/** Loads `[{"username","password_hash","roles"}]`; no path means no users (token login then always fails). */
export async function loadUserDirectory(path: string | undefined): Promise<UserDirectory> {
  if (path === undefined) return new Map();
  const where = `USERS_FILE ${path}`;

  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new UsersFileError(`${where}: cannot be read (${code})`);
  }

  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new UsersFileError(`${where}: is not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(document)) {
    throw new UsersFileError(`${where}: must hold a JSON array of {"username","password_hash","roles"} objects`);
  }

  const users = new Map<string, UserAccount>();
  document.forEach((entry: unknown, index) => {
    const at = `${where}: entry [${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new UsersFileError(`${at} must be an object with "username", "password_hash" and "roles"`);
    }
    const record = entry as Record<string, unknown>;
    const unknownField = Object.keys(record).find((key) => !ENTRY_FIELDS.has(key));
    if (unknownField !== undefined) {
      throw new UsersFileError(
        `${at} has the unknown field "${unknownField}" (allowed: username, password_hash, roles)`,
      );
    }

    const { username, password_hash: passwordHash, roles = [] } = record;
    if (typeof username !== 'string' || username.length === 0) {
      throw new UsersFileError(`${at} field "username" must be a non-empty string`);
    }
    if (isUserNameTooLong(username)) {
      throw new UsersFileError(`${at} field "username" is longer than ${MAX_USERNAME_CHARACTERS} characters`);
    }
    const hashProblem = describeArgon2idHashProblem(passwordHash);
    if (hashProblem !== null) {
      throw new UsersFileError(`${at} ("${username}") field "password_hash" ${hashProblem}`);
    }
    if (!Array.isArray(roles) || !roles.every((role) => typeof role === 'string' && role.length > 0)) {
      throw new UsersFileError(`${at} ("${username}") field "roles" must be an array of non-empty strings`);
    }
    const earlier = users.get(username);
    if (earlier !== undefined) {
      const firstIndex = [...users.keys()].indexOf(username);
      throw new UsersFileError(`${at} field "username": "${username}" is already defined by entry [${firstIndex}]`);
    }
    users.set(username, { username, passwordHash: passwordHash as string, roles: [...new Set(roles as string[])] });
  });
  return users;
}
