/**
 * Token login configuration that cannot work (bad users file, unreadable or mismatched
 * keys). Thrown while the app is built so the server stops before it listens; the
 * message names the variable, the file and what is wrong.
 */
export class AuthStartupError extends Error {
  override readonly name: string = 'AuthStartupError';
}
