/** The words that turn a switch on, in any case and with spaces around (the Books API's contract). */
export const SWITCH_ON_WORDS = ['true', '1', 'yes', 'on'] as const;
/** The words that turn a switch off. */
export const SWITCH_OFF_WORDS = ['false', '0', 'no', 'off'] as const;

/** How the words are named in messages, e.g. "must be true/1/yes/on or false/0/no/off". */
export const SWITCH_WORDS_HINT = `${SWITCH_ON_WORDS.join('/')} or ${SWITCH_OFF_WORDS.join('/')}`;

/**
 * Reads an on/off switch: true for an on word, false for an off word, undefined for anything
 * else (including an empty value), so each caller decides whether unknown words are an error.
 */
export function parseSwitch(raw: string): boolean | undefined {
  const word = raw.trim().toLowerCase();
  if ((SWITCH_ON_WORDS as readonly string[]).includes(word)) return true;
  if ((SWITCH_OFF_WORDS as readonly string[]).includes(word)) return false;
  return undefined;
}
