/**
 * The bounds of a user name (the contract's "Login form bounds"): a name longer than
 * MAX_USERNAME_CHARACTERS is no user's, and no log line shows more of a name than its first
 * LOGGED_USERNAME_CHARACTERS. Characters are code points, as everywhere in the contract.
 */
export const MAX_USERNAME_CHARACTERS = 256;
const LOGGED_USERNAME_CHARACTERS = 64;

/** The first `count` code points of `text`; reads no further than that. */
function firstCharacters(text: string, count: number): string {
  // A UTF-16 string has at least as many units as code points: short text needs no counting.
  if (text.length <= count) return text;
  let end = 0;
  for (let taken = 0; taken < count && end < text.length; taken += 1) {
    end += text.codePointAt(end)! > 0xffff ? 2 : 1;
  }
  return text.slice(0, end);
}

export function isUserNameTooLong(username: string): boolean {
  return firstCharacters(username, MAX_USERNAME_CHARACTERS).length < username.length;
}

/** What a log line may show of a user name someone sent. */
export function userNameForLog(username: string): string {
  return firstCharacters(username, LOGGED_USERNAME_CHARACTERS);
}
